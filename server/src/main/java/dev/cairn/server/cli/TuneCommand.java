package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.view.FeedbackViews;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn tune --namespace NS [--hold-out X] [--rollback] [--server URL --token T]}: trains a
 * query adapter from the namespace's recorded feedback, activating it only if it beats the current
 * ranking on the held-back judgments ({@code POST adaptation/train}), or rolls the active one back
 * ({@code DELETE adaptation}). On the server given, on the one that holds the local data dir, or
 * else in the local data dir itself.
 */
@Command(
        name = "tune",
        description =
                "Train the namespace's ranking adaptation from its feedback (activated only if it"
                        + " wins on held-back judgments), or roll it back.",
        mixinStandardHelpOptions = true)
final class TuneCommand implements Callable<Integer> {

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to tune (required)")
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

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        RemoteOptions server =
                remote != null && remote.remote() ? remote : local.runningServer().orElse(null);
        String base = "/v1/namespaces/" + namespace + "/adaptation";
        if (rollback) {
            JsonNode state;
            if (server != null) {
                state = Json.MAPPER.readTree(server.delete(base));
            } else {
                try (Cairn cairn = local.openToRead(namespace)) {
                    state =
                            Json.MAPPER
                                    .createObjectNode()
                                    .set(
                                            "active",
                                            Json.MAPPER.valueToTree(
                                                    cairn.knowledge()
                                                            .rollback(namespace)
                                                            .map(FeedbackViews.AdaptationView::of)
                                                            .orElse(null)));
                }
            }
            JsonNode active = state.path("active");
            System.out.println(
                    active.isObject()
                            ? "rolled back; adaptation "
                                    + active.path("version").asInt()
                                    + " is active again"
                            : "rolled back; no adaptation is active");
            return 0;
        }
        double share = holdOut == null ? TuneOptions.DEFAULT_HOLD_OUT : holdOut;
        JsonNode trained;
        if (server != null) {
            trained =
                    Json.MAPPER.readTree(
                            server.post(
                                    base + "/train",
                                    Json.MAPPER.createObjectNode().put("holdOut", share)));
        } else {
            try (Cairn cairn = local.openToRead(namespace)) {
                trained =
                        Json.MAPPER.valueToTree(
                                FeedbackViews.AdaptationView.of(
                                        cairn.knowledge()
                                                .tune(
                                                        namespace,
                                                        TuneOptions.DEFAULTS.withHoldOut(share))));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(trained));
            return 0;
        }
        JsonNode r = trained.path("report");
        System.out.printf(
                Locale.ROOT,
                "adaptation %d: trained on %d judged queries in %d ms; on %d held back"
                        + " nDCG@10 %.4f before, %.4f with it -> %s%n",
                trained.path("version").asInt(),
                r.path("trainQueries").asInt(),
                r.path("trainMillis").asLong(),
                r.path("heldOutQueries").asInt(),
                r.path("baselineNdcg10").asDouble(),
                r.path("adaptedNdcg10").asDouble(),
                trained.path("state").asText());
        return 0;
    }
}
