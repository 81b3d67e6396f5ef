package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server restarted on its data dir: it loads the entity graph from the snapshot the first
 * one wrote at close and the model's weights from the file the first one converted them into, says
 * when it is ready and in which phases the time went, answers {@code /health} 200 UP, and a
 * retrieve that uses the graph answers as it did before the restart.
 */
class RestartTest {

    static final Path RUNBOOKS = GraphEndpointsTest.RUNBOOKS;
    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/ops";
    static final String GRAPH_ONLY =
            "{\"query\":\"how do I fail over the primary database\",\"topK\":5,"
                    + "\"weights\":{\"lexical\":0,\"dense\":0,\"graph\":1}}";
    static final String HYBRID =
            "{\"query\":\"how do I fail over the primary database\",\"topK\":5}";

    @TempDir Path dataDir;

    ServerSettings settings() {
        Duration patient = Duration.ofSeconds(30);
        return ServerSettings.defaults(dataDir)
                .withPort(0)
                .withAdminToken(A)
                .withRetrieval(
                        dev.cairn.retrieval.RetrievalConfig.defaults()
                                .withTimeouts(patient, patient, patient));
    }

    @Test
    void aRestartedServerLoadsItsGraphAndAnswersAsBefore() throws IOException {
        List<String> graphBefore;
        List<String> hybridBefore;
        try (ServerFixture first = new ServerFixture(settings())) {
            first.call("POST", "/v1/namespaces", A, "{\"name\":\"ops\"}");
            try (var files = Files.list(RUNBOOKS)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                    ObjectNode body = Json.MAPPER.createObjectNode();
                    body.put("content", Files.readString(file));
                    body.put("format", "markdown");
                    var created = first.call("POST", NS + "/documents", A, body.toString());
                    assertThat(created.status()).as(created.body()).isEqualTo(201);
                }
            }
            // a deletion after the snapshot the first start wrote
            assertThat(first.call("DELETE", NS + "/documents/search-reindex", A, null).status())
                    .isEqualTo(204);
            graphBefore = hits(first.call("POST", NS + "/retrieve", A, GRAPH_ONLY));
            hybridBefore = hits(first.call("POST", NS + "/retrieve", A, HYBRID));
        }
        assertThat(graphBefore)
                .anySatisfy(id -> assertThat(id).startsWith("ledger-db-promote-replica#"));
        assertThat(dataDir.resolve(Cairn.GRAPH_SNAPSHOT_FILE)).isNotEmptyFile();
        // the converted weights are kept once per user, not in each data dir
        assertThat(weightFiles(dataDir)).isEmpty();
        Path weights = EmbeddingModels.weightCacheDir().resolve("model-weights-bge-small-en-v1.5");

        try (LogCapture logs = new LogCapture();
                ServerFixture second = new ServerFixture(settings())) {
            var health = second.call("GET", "/health", null, null);
            assertThat(health.status()).as(health.body()).isEqualTo(200);
            assertThat(health.json().path("status").asText()).isEqualTo("UP");
            assertThat(messages(logs))
                    .anySatisfy(
                            m -> assertThat(m).startsWith("entity graph loaded from its snapshot"))
                    .noneSatisfy(m -> assertThat(m).startsWith("entity graph rebuilt"))
                    .anySatisfy(
                            m ->
                                    assertThat(m)
                                            .startsWith("model bge-small-en-v1.5")
                                            .contains("weights read from " + weights))
                    .noneSatisfy(m -> assertThat(m).startsWith("model weights cache"))
                    .anySatisfy(
                            m ->
                                    assertThat(m)
                                            .matches("ready in \\d+\\.\\d\\d s \\(phases: .*\\)")
                                            .contains("store ", "graph ", "model ", "http "));

            assertThat(hits(second.call("POST", NS + "/retrieve", A, GRAPH_ONLY)))
                    .isEqualTo(graphBefore);
            assertThat(hits(second.call("POST", NS + "/retrieve", A, HYBRID)))
                    .isEqualTo(hybridBefore);
            assertThat(second.call("GET", NS + "/documents/search-reindex", A, null).status())
                    .isEqualTo(404);
        }
    }

    /** The model weights cache files in {@code dir}. */
    static List<Path> weightFiles(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("model-weights-"))
                    .toList();
        }
    }

    /** Chunk ids of the hits, in order. */
    static List<String> hits(CairnCalls.Response answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        for (JsonNode hit : answer.json().path("hits")) {
            ids.add(hit.path("chunkId").asText());
        }
        assertThat(ids).isNotEmpty();
        return ids;
    }

    static List<String> messages(LogCapture logs) {
        return logs.records().stream().map(RestartTest::format).toList();
    }

    private static String format(LogRecord r) {
        return new java.util.logging.SimpleFormatter().formatMessage(r);
    }
}
