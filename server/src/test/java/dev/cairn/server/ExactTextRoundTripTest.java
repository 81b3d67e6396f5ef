package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a client writes is what it reads back, byte for byte: compatibility forms (superscripts,
 * ligatures, full-width and mathematical letters, circled digits), non-breaking spaces, soft
 * hyphens, zero-width characters, a BOM, directional marks and decomposed accents, in memories,
 * proposals, ARK messages (content, name, tool-call ids and arguments, object keys) and Orloj
 * values and keys, sent the way ARK's and Orloj's clients send them. Matching still reads the
 * normalised copy: a plain query finds the typographic text. Half a surrogate pair is refused with
 * a 400 naming the field. The PostgreSQL subclass runs the same against the other store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactTextRoundTripTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/exact";

    /** Each character class the write path used to rewrite, in one line. */
    static final String TYPOGRAPHY =
            "E=mc\u00B2 H\u2082O \u00BD \u2460 \uFB01le \uFF21\uFF22\uFF23 \u2122 \u2026"
                    + " \uD835\uDC01\uD835\uDC28\uD835\uDC25\uD835\uDC1D non\u00A0breaking"
                    + " soft\u00ADhyphen zero\u200Bwidth \uFEFFbom \u200Emark caf\u0065\u0301";

    static List<String> strings() {
        return List.of(
                TYPOGRAPHY,
                "\uFEFFstarts with a BOM",
                "\u05E9\u05DC\u05D5\u05DD\u200F right-to-left mark",
                "family \uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67 and \u0633\u0644\u0627\u0645\u200C\u062F",
                "tab\tand  two spaces, trailing space ");
    }

    ServerFixture cairn;

    /** The server settings; the PostgreSQL subclass points them at a database. */
    ServerSettings settings(Path dataDir) {
        return ServerSettings.defaults(dataDir).withPort(0).withAdminToken(A);
    }

    @BeforeAll
    void start(@TempDir Path dataDir) {
        cairn = new ServerFixture(settings(dataDir));
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"exact\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    static String json(JsonNode node) {
        return node.toString();
    }

    static void assertExact(String read, String sent) {
        assertThat(read).isEqualTo(sent);
        assertThat(read.getBytes(StandardCharsets.UTF_8))
                .isEqualTo(sent.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @MethodSource("strings")
    void aMemoryComesBackAsSentAndActive(String text) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("type", "fact").put("content", text);
        body.putArray("tags").add("\u2460-notes");
        var created = cairn.call("POST", NS + "/memories", A, json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("status").asText()).isEqualTo("ACTIVE");
        assertExact(created.json().path("content").asText(), text);

        var read =
                cairn.call("GET", NS + "/memories/" + created.json().path("id").asText(), A, null);
        assertThat(read.status()).isEqualTo(200);
        assertExact(read.json().path("content").asText(), text);
    }

    @Test
    void aPlainQueryFindsTypographicTextThroughTheMatchingCopy() {
        // Every word typographic: only the normalised matching copy has "kiln", "glaze", "firing".
        String text = mathBold("Kiln glaze") + " \uFB01ring \u2460\u2461\u2462\u2463";
        ObjectNode body = Json.MAPPER.createObjectNode().put("type", "fact").put("content", text);
        var created = cairn.call("POST", NS + "/memories", A, json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        var recall =
                cairn.call(
                        "POST", NS + "/recall", A, "{\"query\":\"kiln glaze firing\",\"limit\":3}");
        assertThat(recall.status()).as(recall.body()).isEqualTo(200);
        JsonNode first = recall.json().path("memories").path(0).path("memory");
        assertExact(first.path("content").asText(), text);
        assertThat(recall.json().path("context").asText()).contains(text);
    }

    /** {@code latin} in MATHEMATICAL BOLD letters (U+1D400..), which NFKC folds back. */
    static String mathBold(String latin) {
        StringBuilder out = new StringBuilder();
        latin.chars()
                .forEach(
                        c ->
                                out.appendCodePoint(
                                        Character.isUpperCase(c)
                                                ? 0x1D400 + c - 'A'
                                                : Character.isLowerCase(c)
                                                        ? 0x1D41A + c - 'a'
                                                        : c));
        return out.toString();
    }

    @Test
    void aProposalComesBackAsSent() {
        ObjectNode body =
                Json.MAPPER
                        .createObjectNode()
                        .put("type", "memory")
                        .put("title", "\uFB01le layout \u2460")
                        .put("description", TYPOGRAPHY)
                        .put("content", TYPOGRAPHY)
                        .put("memoryType", "fact");
        var created = cairn.call("POST", NS + "/proposals", A, json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        var read =
                cairn.call("GET", NS + "/proposals/" + created.json().path("id").asText(), A, null);
        assertExact(read.json().path("title").asText(), "\uFB01le layout \u2460");
        assertExact(read.json().path("description").asText(), TYPOGRAPHY);
        assertExact(read.json().path("content").asText(), TYPOGRAPHY);
    }

    @Test
    void arkMessagesComeBackAsSentIncludingToolCallsNamesAndKeys() {
        var conversation = cairn.call("POST", "/ark/exact/conversations", null, null);
        assertThat(conversation.status()).isEqualTo(201);
        String id = conversation.json().path("conversation_id").asText();

        ObjectNode user = Json.MAPPER.createObjectNode().put("role", "user");
        user.put("content", TYPOGRAPHY).put("name", "\uFF21\uFF4E\uFF4E\u00A0M\u0302");
        ObjectNode assistant = Json.MAPPER.createObjectNode().put("role", "assistant");
        assistant.putNull("content");
        ObjectNode call = assistant.putArray("tool_calls").addObject();
        call.put("id", "call_\u2460").put("type", "function");
        call.putObject("function")
                .put("name", "lookup")
                .put("arguments", "{\"q\":\"" + "\uFB01le \u00BD\u200B" + "\"}");
        ObjectNode tool = Json.MAPPER.createObjectNode().put("role", "tool");
        tool.put("tool_call_id", "call_\u2460").put("content", "\u2122 \u2026");
        tool.putObject("metadata").put("\uFF4Bey\u00B2", "v\u0061\u0308lue");
        ObjectNode request = Json.MAPPER.createObjectNode().put("conversation_id", id);
        request.put("query_id", "q-1");
        ArrayNode messages = request.putArray("messages").add(user).add(assistant).add(tool);

        var added = cairn.call("POST", "/ark/exact/messages", A, json(request));
        assertThat(added.status()).as(added.body()).isEqualTo(200);

        var read = cairn.call("GET", "/ark/exact/messages?conversation_id=" + id, A, null);
        assertThat(read.status()).isEqualTo(200);
        JsonNode items = read.json().path("items");
        assertThat(items).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(items.get(i).path("message")).isEqualTo(messages.get(i));
            assertExact(json(items.get(i).path("message")), json(messages.get(i)));
        }
    }

    @ParameterizedTest
    @MethodSource("strings")
    void orlojValuesAndKeysComeBackAsSent(String text) {
        String key = "notes/\u2460/" + Integer.toHexString(text.hashCode());
        ObjectNode put = Json.MAPPER.createObjectNode().put("key", key).put("value", text);
        var stored = cairn.call("POST", "/orloj/exact/put", A, json(put));
        assertThat(stored.status()).as(stored.body()).isEqualTo(200);

        var got =
                cairn.call(
                        "POST",
                        "/orloj/exact/get",
                        A,
                        "{\"key\":" + Json.MAPPER.valueToTree(key) + "}");
        assertThat(got.status()).isEqualTo(200);
        assertExact(got.json().path("value").asText(), text);
        var listed = cairn.call("POST", "/orloj/exact/list", A, "{\"prefix\":\"notes/\u2460/\"}");
        assertThat(listed.json().path("entries").findValuesAsText("key")).contains(key);
    }

    @Test
    void halfASurrogatePairIsRefusedNamingTheFieldOnEveryWritePath() {
        var memory =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"broken \\ud800 pair\"}");
        assertThat(memory.status()).isEqualTo(400);
        assertThat(memory.contentType()).startsWith("application/problem+json");
        assertThat(memory.json().path("detail").asText())
                .contains("field 'content'")
                .contains("lone surrogate (\\ud800)");

        var tags =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"ok\",\"tags\":[\"a\",\"\\udc00b\"]}");
        assertThat(tags.status()).isEqualTo(400);
        assertThat(tags.json().path("detail").asText()).contains("field 'tags[1]'");

        String id =
                cairn.call("POST", "/ark/exact/conversations", null, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        var message =
                cairn.call(
                        "POST",
                        "/ark/exact/messages",
                        A,
                        "{\"conversation_id\":\""
                                + id
                                + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\","
                                + "\"content\":\"x\\udfff\"}]}");
        assertThat(message.status()).isEqualTo(400);
        assertThat(message.body()).contains("messages[0].content");
        var none = cairn.call("GET", "/ark/exact/messages?conversation_id=" + id, A, null);
        assertThat(none.json().path("items")).isEmpty();

        var value =
                cairn.call("POST", "/orloj/exact/put", A, "{\"key\":\"k\\ud83d\",\"value\":\"v\"}");
        assertThat(value.status()).isEqualTo(400);
        assertThat(value.body()).contains("field 'key'");
        var missing = cairn.call("POST", "/orloj/exact/get", A, "{\"key\":\"k?\"}");
        assertThat(missing.json().path("found").asBoolean(true)).isFalse();

        // A whole pair, escaped, is one character and is stored as it.
        var pair =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"rocket \\ud83d\\ude80 launch\"}");
        assertThat(pair.status()).isEqualTo(201);
        assertExact(pair.json().path("content").asText(), "rocket \uD83D\uDE80 launch");
    }
}
