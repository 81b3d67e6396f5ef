package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transcript search over ARK messages, and the agent tools with their role checks. */
@RoutingTest
class TranscriptsAndToolsTest {

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static final String A = CairnCalls.ADMIN;
    static String conversation;
    static String other;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn = RoutedCairn.open(dataDir, routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"agents\"}");
        conversation =
                cairn.call("POST", "/ark/agents/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        other =
                cairn.call("POST", "/ark/agents/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        post(
                conversation,
                "q1",
                "user",
                "Our Kafka consumer lag alert fires every night around 2am.");
        post(
                conversation,
                "q1",
                "assistant",
                "The nightly batch export saturates the brokers; raise the consumer fetch size.");
        post(other, "q2", "user", "Please book a table for two at the Italian place.");
        post(other, "q2", "assistant", "Booked for 7pm.");
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static void post(String conversation, String query, String role, String content) {
        var r =
                cairn.call(
                        "POST",
                        "/ark/agents/messages",
                        A,
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\""
                                + query
                                + "\",\"messages\":[{\"role\":\""
                                + role
                                + "\",\"content\":\""
                                + content
                                + "\"}]}");
        assertThat(r.status()).isEqualTo(200);
    }

    @Test
    void transcriptSearchFindsMessagesWithCompactSnippets() {
        var r =
                cairn.call(
                        "POST",
                        "/v1/namespaces/agents/transcripts/search",
                        A,
                        "{\"query\":\"kafka consumer lag\",\"limit\":5}");
        assertThat(r.status()).isEqualTo(200);
        JsonNode items = r.json().path("items");
        assertThat(r.json().path("total").asLong()).isEqualTo(items.size());
        JsonNode best = items.get(0);
        assertThat(best.path("conversationId").asText()).isEqualTo(conversation);
        assertThat(best.path("role").asText()).isEqualTo("user");
        assertThat(best.path("snippet").asText()).contains("Kafka consumer lag");
        assertThat(best.path("messageId").asText()).isNotBlank();
        // A similarity on 0..1 (not a fused rank score of about 0.02), best first.
        assertThat(best.path("score").asDouble()).isBetween(0.3, 1.0);
        List<Double> scores = new ArrayList<>();
        items.forEach(i -> scores.add(i.path("score").asDouble()));
        assertThat(scores).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(scores).allSatisfy(x -> assertThat(x).isBetween(0.1, 1.0));

        // Dense: no shared words with "restaurant reservation dinner".
        var semantic =
                cairn.call(
                        "POST",
                        "/v1/namespaces/agents/transcripts/search",
                        A,
                        "{\"query\":\"restaurant reservation for dinner\",\"limit\":2}");
        assertThat(semantic.json().path("items").get(0).path("conversationId").asText())
                .isEqualTo(other);

        var scoped =
                cairn.call(
                        "POST",
                        "/v1/namespaces/agents/transcripts/search",
                        A,
                        "{\"query\":\"kafka\",\"conversationId\":\"" + other + "\",\"limit\":5}");
        for (JsonNode item : scoped.json().path("items")) {
            assertThat(item.path("conversationId").asText()).isEqualTo(other);
        }
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/agents/transcripts/search",
                                        A,
                                        "{\"limit\":5}")
                                .status())
                .isEqualTo(400);
    }

    @Test
    void deletedConversationsLeaveTranscriptSearch() {
        String gone =
                cairn.call("POST", "/ark/agents/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        post(gone, "q9", "user", "The zanzibar migration finished without incident.");
        assertThat(conversationsFor("zanzibar migration")).contains(gone);

        cairn.call("DELETE", "/ark/agents/conversations/" + gone, A, null);

        assertThat(conversationsFor("zanzibar migration")).doesNotContain(gone);
    }

    @Test
    void aNamespaceCreatedAgainDoesNotFindTheOldOnesMessages() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"again\"}");
        String old =
                cairn.call("POST", "/ark/again/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        String message =
                "{\"conversation_id\":\""
                        + old
                        + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"the quokka enclosure needs a new gate\"}]}";
        assertThat(cairn.call("POST", "/ark/again/messages", A, message).status()).isEqualTo(200);
        String search = "{\"query\":\"quokka enclosure\",\"limit\":5}";
        String path = "/v1/namespaces/again/transcripts/search";
        assertThat(cairn.call("POST", path, A, search).json().path("items")).hasSize(1);

        cairn.call("DELETE", "/v1/namespaces/again", A, null);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"again\"}");

        assertThat(cairn.call("POST", path, A, search).json().path("items")).isEmpty();
    }

    static List<String> conversationsFor(String query) {
        List<String> out = new ArrayList<>();
        cairn.call(
                        "POST",
                        "/v1/namespaces/agents/transcripts/search",
                        A,
                        "{\"query\":\"" + query + "\",\"limit\":10}")
                .json()
                .path("items")
                .forEach(i -> out.add(i.path("conversationId").asText()));
        return out;
    }

    @Test
    void listsToolDefinitionsInFunctionCallingShape() {
        var r = cairn.call("GET", "/v1/tools", A, null);
        assertThat(r.status()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        for (JsonNode tool : r.json().path("items")) {
            assertThat(tool.path("type").asText()).isEqualTo("function");
            JsonNode f = tool.path("function");
            names.add(f.path("name").asText());
            assertThat(f.path("description").asText()).isNotBlank();
            assertThat(f.path("parameters").path("type").asText()).isEqualTo("object");
            assertThat(f.path("parameters").path("properties").isObject()).isTrue();
            assertThat(f.path("parameters").path("required").isArray()).isTrue();
        }
        assertThat(names)
                .contains(
                        "memory.read",
                        "memory.write",
                        "memory.search",
                        "memory.list",
                        "memory.ingest",
                        "remember",
                        "propose_memory",
                        "search_transcript",
                        "retrieve");
        assertThat(cairn.call("GET", "/v1/tools", null, null).status()).isEqualTo(401);
    }

    @Test
    void keyValueToolsWriteReadSearchListAndIngest() {
        String tools = "/v1/namespaces/agents/tools/";
        assertThat(
                        cairn.call(
                                        "POST",
                                        tools + "memory.write",
                                        A,
                                        "{\"key\":\"prefs/alice\",\"value\":\"Alice likes dark mode\"}")
                                .status())
                .isEqualTo(200);
        JsonNode read =
                cairn.call("POST", tools + "memory.read", A, "{\"key\":\"prefs/alice\"}").json();
        assertThat(read.path("value").asText()).isEqualTo("Alice likes dark mode");
        JsonNode alias =
                cairn.call("POST", tools + "memory_read", A, "{\"key\":\"prefs/alice\"}").json();
        assertThat(alias.path("found").asBoolean()).isTrue();

        StringBuilder doc = new StringBuilder();
        for (int i = 0; i < 2500; i++) {
            doc.append((char) ('a' + (i % 26)));
        }
        JsonNode ingested =
                cairn.call(
                                "POST",
                                tools + "memory.ingest",
                                A,
                                "{\"source\":\"docs/alphabet\",\"text\":\"" + doc + "\"}")
                        .json();
        // 1,000-character chunks overlapping by 200: starts 0, 800, 1600 (ends at 2500).
        assertThat(ingested.path("chunks").asInt()).isEqualTo(3);
        assertThat(ingested.path("keys").get(0).asText()).isEqualTo("docs/alphabet/chunk-0000");
        assertThat(ingested.path("keys").get(2).asText()).isEqualTo("docs/alphabet/chunk-0002");
        JsonNode second =
                cairn.call(
                                "POST",
                                tools + "memory.read",
                                A,
                                "{\"key\":\"docs/alphabet/chunk-0001\"}")
                        .json();
        assertThat(second.path("value").asText()).hasSize(1000).isEqualTo(doc.substring(800, 1800));

        JsonNode listed =
                cairn.call("POST", tools + "memory.list", A, "{\"prefix\":\"docs/\"}").json();
        assertThat(listed.path("entries")).hasSize(3);
        JsonNode found =
                cairn.call(
                                "POST",
                                tools + "memory.search",
                                A,
                                "{\"query\":\"dark mode preference\",\"top_k\":1}")
                        .json();
        assertThat(found.path("results").get(0).path("key").asText()).isEqualTo("prefs/alice");

        assertThat(cairn.call("POST", tools + "no.such.tool", A, "{}").status()).isEqualTo(404);
        assertThat(cairn.call("POST", tools + "memory.read", A, "{}").status()).isEqualTo(400);
    }

    @Test
    void proposalTranscriptAndRetrieveTools() {
        String tools = "/v1/namespaces/agents/tools/";
        JsonNode remembered =
                cairn.call(
                                "POST",
                                tools + "remember",
                                A,
                                "{\"content\":\"Alice prefers weekly summaries on Mondays.\",\"memoryType\":\"PREFERENCE\",\"tags\":[\"Alice\",\"reports\"]}")
                        .json();
        assertThat(remembered.path("type").asText()).isEqualTo("memory");
        assertThat(remembered.path("status").asText()).isEqualTo("pending");
        assertThat(remembered.path("memoryType").asText()).isEqualTo("PREFERENCE");
        assertThat(remembered.path("suggestedTags").toString())
                .isEqualTo("[\"alice\",\"reports\"]");

        JsonNode proposed =
                cairn.call(
                                "POST",
                                tools + "propose_memory",
                                A,
                                "{\"type\":\"workflow\",\"title\":\"Rollback\",\"content\":\"Roll back first, debug later.\"}")
                        .json();
        assertThat(proposed.path("type").asText()).isEqualTo("workflow");

        JsonNode transcript =
                cairn.call("POST", tools + "search_transcript", A, "{\"query\":\"kafka brokers\"}")
                        .json();
        assertThat(transcript.path("items").get(0).path("conversationId").asText())
                .isEqualTo(conversation);

        cairn.call(
                "POST",
                "/v1/namespaces/agents/documents",
                A,
                "{\"id\":\"kafka-runbook\",\"title\":\"Kafka lag\",\"format\":\"markdown\",\"content\":\"# Kafka lag\\n\\nRaise fetch.min.bytes and add consumers when lag grows.\"}");
        JsonNode retrieved =
                cairn.call(
                                "POST",
                                tools + "retrieve",
                                A,
                                "{\"query\":\"kafka consumer lag\",\"topK\":3}")
                        .json();
        assertThat(retrieved.path("hits").get(0).path("documentId").asText())
                .isEqualTo("kafka-runbook");
    }

    @Test
    void tokenRolesDecideWhichToolsRun() {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"tool-reader\",\"roles\":[\"read\"],\"namespaces\":[\"agents\"]}");
        String reader = token.json().path("token").asText();
        String tools = "/v1/namespaces/agents/tools/";
        assertThat(cairn.call("POST", tools + "memory.read", reader, "{\"key\":\"x\"}").status())
                .isEqualTo(200);
        assertThat(
                        cairn.call("POST", tools + "search_transcript", reader, "{\"query\":\"x\"}")
                                .status())
                .isEqualTo(200);
        assertThat(
                        cairn.call(
                                        "POST",
                                        tools + "memory.write",
                                        reader,
                                        "{\"key\":\"x\",\"value\":\"y\"}")
                                .status())
                .isEqualTo(403);
        assertThat(
                        cairn.call(
                                        "POST",
                                        tools + "memory.ingest",
                                        reader,
                                        "{\"source\":\"s\",\"text\":\"t\"}")
                                .status())
                .isEqualTo(403);
        assertThat(
                        cairn.call(
                                        "POST",
                                        tools + "remember",
                                        reader,
                                        "{\"content\":\"something to keep\"}")
                                .status())
                .isEqualTo(403);
        assertThat(cairn.call("POST", tools + "propose_memory", reader, "{}").status())
                .isEqualTo(403);
    }
}
