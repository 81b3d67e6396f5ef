package dev.cairn.server.cli;

import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.view.FeedbackViews;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn tune --namespace NS [--hold-out X] [--rollback]}: trains a query adapter from the
 * namespace's recorded feedback in the local data dir, activating it only if it beats the current
 * ranking on the held-back judgments (what {@code POST adaptation/train} does), or rolls the active
 * one back ({@code DELETE adaptation}).
 */
@Command(
        name = "tune",
        description =
                "Train the namespace's ranking adaptation from its feedback (activated only if it"
                        + " wins on held-back judgments), or roll it back.",
        mixinStandardHelpOptions = true)
final class TuneCommand implements Callable<Integer> {

    @Option(names = "--namespace", required = true, paramLabel = "NS")
    String namespace;

    @Option(
            names = "--hold-out",
            paramLabel = "X",
            description = "share of judged queries held back to compare (default 0.2)")
    Double holdOut;

    @Option(names = "--rollback", description = "roll the active adaptation back instead")
    boolean rollback;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Mixin LocalOptions local;

    @Override
    public Integer call() throws IOException {
        TuneOptions options =
                holdOut == null ? TuneOptions.DEFAULTS : TuneOptions.DEFAULTS.withHoldOut(holdOut);
        try (Cairn cairn = local.openToRead(namespace)) {
            KnowledgeBase kb = cairn.knowledge();
            if (rollback) {
                Optional<Adaptation> now = kb.rollback(namespace);
                System.out.println(
                        now.map(a -> "rolled back; adaptation " + a.version() + " is active again")
                                .orElse("rolled back; no adaptation is active"));
                return 0;
            }
            Adaptation trained = kb.tune(namespace, options);
            if (json) {
                System.out.println(
                        Json.MAPPER
                                .writerWithDefaultPrettyPrinter()
                                .writeValueAsString(FeedbackViews.AdaptationView.of(trained)));
                return 0;
            }
            TuneReport r = trained.report();
            System.out.printf(
                    Locale.ROOT,
                    "adaptation %d: trained on %d judged queries in %d ms; on %d held back"
                            + " nDCG@10 %.4f before, %.4f with it -> %s%n",
                    trained.version(),
                    r.trainQueries(),
                    r.trainMillis(),
                    r.heldOutQueries(),
                    r.baselineNdcg10(),
                    r.adaptedNdcg10(),
                    trained.state().wireName());
            return 0;
        }
    }
}
