package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.AdaptationSubject;
import dev.cairn.server.api.body.TrainBody;
import dev.cairn.server.api.view.AdaptationViews;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn tune --namespace NS [--memories] [--hold-out X] [--rollback] [--server URL --token
 * T]}: trains a query adapter from the namespace's recorded feedback, activating it only if it
 * beats the current ranking on the held-back judgments ({@code POST adaptation/train}), or rolls
 * the active one back ({@code DELETE adaptation}); retrieve's from document and chunk judgments, or
 * with {@code --memories} recall's from memory judgments. On the server given, on the one that
 * holds the local data dir, or else in the local data dir itself.
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

    @Option(
            names = "--prior-weight",
            paramLabel = "X",
            description =
                    "weight of the judged-relevant prior (default "
                            + TuneOptions.DEFAULT_PRIOR_WEIGHT
                            + ", with --memories "
                            + TuneOptions.DEFAULT_MEMORY_PRIOR_WEIGHT
                            + "; 0 trains without one)")
    Double priorWeight;

    @Option(names = "--rollback", description = "roll the active adaptation back instead")
    boolean rollback;

    @Option(
            names = "--memories",
            description =
                    "recall's adaptation, from memory judgments, instead of retrieve's (from"
                            + " document and chunk judgments)")
    boolean memories;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        RemoteOptions server = local.askedOrRunning(remote);
        String base = "/v1/namespaces/" + namespace + "/adaptation";
        AdaptationSubject subject =
                memories ? AdaptationSubject.MEMORIES : AdaptationSubject.DOCUMENTS;
        if (rollback) {
            JsonNode state;
            if (server != null) {
                state =
                        Json.MAPPER.readTree(
                                server.delete(base + "?subject=" + subject.wireName()));
            } else {
                try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.AT_OPEN)) {
                    Optional<Adaptation> now;
                    if (memories) {
                        try (MemoryService memory = local.openMemory(cairn)) {
                            now = memory.rollbackAdaptation(namespace);
                        }
                    } else {
                        now = cairn.knowledge().rollback(namespace);
                    }
                    state =
                            Json.MAPPER
                                    .createObjectNode()
                                    .set(
                                            "active",
                                            Json.MAPPER.valueToTree(
                                                    now.map(AdaptationViews.AdaptationView::of)
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
        TrainBody settings = new TrainBody(subject.wireName(), holdOut, priorWeight);
        JsonNode trained;
        if (server != null) {
            trained =
                    Json.MAPPER.readTree(
                            server.post(base + "/train", Json.MAPPER.valueToTree(settings)));
        } else {
            try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.AT_OPEN)) {
                Adaptation adaptation;
                if (memories) {
                    try (MemoryService memory = local.openMemory(cairn)) {
                        adaptation = memory.tune(namespace, settings.options());
                    }
                } else {
                    adaptation = cairn.knowledge().tune(namespace, settings.options());
                }
                trained = Json.MAPPER.valueToTree(AdaptationViews.AdaptationView.of(adaptation));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(trained));
            return 0;
        }
        System.out.println(describe(trained, memories ? "memories" : "docs"));
        return 0;
    }

    /**
     * A trained adaptation's report in a few lines: the split, the held-back nDCG@10 before and
     * with it over all held-back queries and apart for seen and unseen {@code judged} (docs or
     * memories), and the state.
     */
    static String describe(JsonNode trained, String judged) {
        JsonNode r = trained.path("report");
        JsonNode unseen = r.path("unseenDocuments");
        boolean notWorse =
                unseen.path("adaptedNdcg10").asDouble() - unseen.path("baselineNdcg10").asDouble()
                        >= -r.path("noiseBand").asDouble();
        int factorQueries = r.path("denseWeightQueries").asInt();
        return String.format(
                        Locale.ROOT,
                        "adaptation %d (dense weight x%.1f, %s): trained on %d judged queries in"
                                + " %d ms -> %s%n",
                        trained.path("version").asInt(),
                        trained.path("denseWeight").asDouble(),
                        factorQueries == 0
                                ? "no query left to choose it on"
                                : "chosen on "
                                        + factorQueries
                                        + (factorQueries == 1 ? " query" : " queries"),
                        r.path("trainQueries").asInt(),
                        r.path("trainMillis").asLong(),
                        trained.path("state").asText())
                + String.format(
                        Locale.ROOT,
                        "  held back %4d: nDCG@10 %.4f before, %.4f with it%n",
                        r.path("heldOutQueries").asInt(),
                        r.path("baselineNdcg10").asDouble(),
                        r.path("adaptedNdcg10").asDouble())
                + group("seen " + judged, r.path("seenDocuments"))
                + group("unseen " + judged, unseen)
                + learnedFusion(trained.path("fusion"))
                + String.format(
                        Locale.ROOT,
                        "  (activated when better on all held back and, on unseen %s, not worse"
                                + " than the noise band %.4f: %s there)",
                        judged,
                        r.path("noiseBand").asDouble(),
                        notWorse ? "not worse" : "worse");
    }

    /** The learned fusion's weights, one line; nothing when the version has none. */
    private static String learnedFusion(JsonNode fusion) {
        if (fusion.isEmpty()) {
            return "";
        }
        StringBuilder line = new StringBuilder("  learned fusion:");
        fusion.properties()
                .forEach(
                        e ->
                                line.append(
                                        String.format(
                                                Locale.ROOT,
                                                " %s %.4g",
                                                e.getKey(),
                                                e.getValue().asDouble())));
        return line.append(System.lineSeparator()).toString();
    }

    private static String group(String label, JsonNode g) {
        return String.format(
                Locale.ROOT,
                "    %-15s %4d: nDCG@10 %.4f before, %.4f with it (standard error of the"
                        + " difference %.4f)%n",
                label,
                g.path("queries").asInt(),
                g.path("baselineNdcg10").asDouble(),
                g.path("adaptedNdcg10").asDouble(),
                g.path("standardError").asDouble());
    }
}
