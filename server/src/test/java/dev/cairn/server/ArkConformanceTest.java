package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.agents.conversation.MessageWatch;
import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.server.api.ArkRoutes;
import dev.cairn.server.api.ArkSettings;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives {@code /ark/{ns}} with the requests ARK's controller sends for a query (its HTTP memory
 * client: create the conversation, read its history, append the turn's OpenAI-format messages, read
 * them back) and checks every status code and field name, then paging, deletes, TTL and ARK's error
 * envelope.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArkConformanceTest {

    ServerFixture cairn;
    String base;

    /** The server settings; the PostgreSQL subclass points them at a database. */
    ServerSettings settings(Path dataDir) {
        return ServerSettings.defaults(dataDir).withPort(0).withAdminToken(CairnCalls.ADMIN);
    }

    @BeforeAll
    void start(@TempDir Path dataDir) {
        cairn = new ServerFixture(settings(dataDir));
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ark\"}");
        base = "/ark/ark";
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    /** A request shaped like ARK's Go client's: JSON content type even without a body. */
    CairnCalls.Response ark(String method, String path, String body) {
        return ark(method, path, body, CairnCalls.ADMIN);
    }

    /**
     * A request as ARK's client sends it, with its Memory's {@code spec.headers} (a bearer token)
     * or, with {@code token} null, none at all (its conversation create sends no headers).
     */
    CairnCalls.Response ark(String method, String path, String body, String token) {
        HttpResponse<String> r = send(method, path, body, token);
        return new CairnCalls.Response(
                r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body());
    }

    /** The headers ARK's Go client sends on every call: JSON, even without a body. */
    static final Map<String, String> ARK_HEADERS =
            Map.of("Content-Type", "application/json", "User-Agent", "ark-controller/conformance");

    /** As {@link #ark(String, String, String, String)}, with the answer's headers. */
    HttpResponse<String> send(String method, String path, String body, String token) {
        return cairn.send(method, path, token, body, ARK_HEADERS);
    }

    static void assertArkError(CairnCalls.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/json");
        JsonNode error = r.json().path("error");
        assertThat(error.path("code").asText()).isEqualTo(code);
        assertThat(error.path("message").asText()).isNotBlank();
        assertThat(error.path("requestId").asText()).isNotBlank();
    }

    /** ARK's NewHTTPMemory: a create with no headers but its content type, no body. */
    String createConversation() {
        var created = ark("POST", base + "/conversations", null, null);
        assertThat(created.status()).isEqualTo(201);
        return created.json().path("conversation_id").asText();
    }

    @Test
    void queryLifecycleAsArksControllerDrivesIt() {
        // 0. Health is open.
        var health = cairn.call("GET", base + "/health", null, null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("OK");

        // 1. NewHTTPMemory: POST /conversations with a JSON content type, no body, no token.
        var created = ark("POST", base + "/conversations", null, null);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().properties())
                .extracting(e -> e.getKey())
                .containsExactly("conversation_id");
        String conversation = created.json().path("conversation_id").asText();
        assertThat(conversation).matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");

        // 2. GetMessages before the first turn: empty history.
        var empty = ark("GET", base + "/messages?conversation_id=" + conversation, null);
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.json().path("items").isArray()).isTrue();
        assertThat(empty.json().path("items")).isEmpty();
        assertThat(empty.json().path("total").asLong()).isZero();
        assertThat(empty.json().path("hasMore").asBoolean()).isFalse();
        assertThat(empty.json().has("nextCursor")).isFalse();

        // 3. AddMessages: the turn in OpenAI format, including a tool call and its result.
        String user = "{\"role\":\"user\",\"content\":\"What is the capital of France?\"}";
        String parts =
                "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"And this"
                        + " map?\"},{\"type\":\"image_url\",\"image_url\":{\"url\":"
                        + "\"https://example.com/map.png\",\"detail\":\"low\"}}]}";
        String toolCall =
                "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"lookup\","
                        + "\"arguments\":\"{\\\"q\\\":\\\"France\\\"}\"}}]}";
        String toolResult = "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"Paris\"}";
        String assistant =
                "{\"role\":\"assistant\",\"content\":\"The capital of France is Paris.\"}";
        var added =
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"query-1\",\"messages\":["
                                + String.join(",", user, toolCall, toolResult, assistant, parts)
                                + "]}");
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.body()).isEmpty();

        // 4. GetMessages: the records, in order, messages exactly as sent.
        Instant before = Instant.now().plusSeconds(1);
        var read = ark("GET", base + "/messages?conversation_id=" + conversation, null);
        assertThat(read.status()).isEqualTo(200);
        JsonNode page = read.json();
        assertThat(page.properties())
                .extracting(e -> e.getKey())
                .containsExactly("items", "total", "hasMore");
        assertThat(page.path("total").asLong()).isEqualTo(5);
        List<JsonNode> items = new ArrayList<>();
        page.path("items").forEach(items::add);
        assertThat(items).hasSize(5);
        for (JsonNode item : items) {
            assertThat(item.properties())
                    .extracting(e -> e.getKey())
                    .containsExactly(
                            "timestamp", "conversation_id", "query_id", "message", "sequence");
            assertThat(item.path("conversation_id").asText()).isEqualTo(conversation);
            assertThat(item.path("query_id").asText()).isEqualTo("query-1");
            assertThat(Instant.parse(item.path("timestamp").asText())).isBefore(before);
            assertThat(item.path("sequence").isIntegralNumber()).isTrue();
        }
        assertThat(items.stream().map(i -> i.path("message")).toList())
                .containsExactly(
                        tree(user), tree(toolCall), tree(toolResult), tree(assistant), tree(parts));
        assertThat(items.stream().map(i -> i.path("sequence").asLong()).toList()).isSorted();

        // 5. The conversation is listed and readable.
        var list = ark("GET", base + "/conversations", null);
        assertThat(list.status()).isEqualTo(200);
        assertThat(texts(list.json().path("conversations"))).contains(conversation);
        var one = ark("GET", base + "/conversations/" + conversation, null);
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.json().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(one.json().path("messages")).hasSize(5);

        // 6. A second query in the same conversation; filter by query id.
        ark(
                "POST",
                base + "/messages",
                "{\"conversation_id\":\""
                        + conversation
                        + "\",\"query_id\":\"query-2\",\"messages\":["
                        + user
                        + "]}");
        var second =
                ark(
                        "GET",
                        base + "/messages?conversation_id=" + conversation + "&query_id=query-2",
                        null);
        assertThat(second.json().path("total").asLong()).isEqualTo(1);
    }

    /** Appends {@code n} user messages "message 0".. to a conversation in one batch. */
    void appendNumbered(String conversation, int n) {
        StringBuilder messages = new StringBuilder();
        for (int i = 0; i < n; i++) {
            messages.append(i == 0 ? "" : ",")
                    .append("{\"role\":\"user\",\"content\":\"message ")
                    .append(i)
                    .append("\"}");
        }
        post(conversation, "bulk", messages.toString());
    }

    @Test
    void readsAWholeConversationWithoutLimitAndPagesBySequenceWithOne() {
        String conversation = createConversation();
        appendNumbered(conversation, 250);

        // ARK's controller reads its history without limit: all of it, in one answer.
        JsonNode whole =
                ark("GET", base + "/messages?conversation_id=" + conversation, null).json();
        assertThat(whole.path("items")).hasSize(250);
        assertThat(whole.path("total").asLong()).isEqualTo(250);
        assertThat(whole.path("hasMore").asBoolean()).isFalse();
        assertThat(whole.has("nextCursor")).isFalse();
        List<Long> sequences = new ArrayList<>();
        whole.path("items").forEach(i -> sequences.add(i.path("sequence").asLong()));

        // With limit it pages; the cursor is the last item's sequence, as a string.
        List<String> contents = new ArrayList<>();
        String cursor = null;
        List<String> cursors = new ArrayList<>();
        do {
            var r =
                    ark(
                            "GET",
                            base
                                    + "/messages?limit=100&conversation_id="
                                    + conversation
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            null);
            assertThat(r.status()).isEqualTo(200);
            JsonNode page = r.json();
            assertThat(page.path("total").asLong()).isEqualTo(250);
            page.path("items")
                    .forEach(i -> contents.add(i.path("message").path("content").asText()));
            if (page.path("hasMore").asBoolean()) {
                assertThat(page.path("nextCursor").isTextual())
                        .as("nextCursor is a string")
                        .isTrue();
                cursor = page.path("nextCursor").asText();
                cursors.add(cursor);
            } else {
                assertThat(page.has("nextCursor")).isFalse();
                cursor = null;
            }
        } while (cursor != null);

        assertThat(cursors)
                .containsExactly(
                        Long.toString(sequences.get(99)), Long.toString(sequences.get(199)));
        assertThat(contents).hasSize(250);
        assertThat(contents.getFirst()).isEqualTo("message 0");
        assertThat(contents.getLast()).isEqualTo("message 249");

        // A cursor is a sequence: items after it, whatever was deleted before it.
        var after =
                ark(
                        "GET",
                        base
                                + "/messages?conversation_id="
                                + conversation
                                + "&cursor="
                                + sequences.get(247),
                        null);
        assertThat(after.json().path("items").findValuesAsText("content"))
                .containsExactly("message 248", "message 249");
    }

    @Test
    void readsAFiveHundredMessageConversationWholeAsArksClientDecodesIt() {
        String conversation = createConversation();
        appendNumbered(conversation, 500);
        var r = ark("GET", base + "/messages?conversation_id=" + conversation, null);
        ArkClientShapes.MessagesResponse page = ArkClientShapes.decode(r.body());
        assertThat(page.items()).hasSize(500);
        assertThat(page.total()).isEqualTo(500);
        assertThat(page.hasMore()).isFalse();
        assertThat(page.nextCursor()).isNull();
        assertThat(page.items().getLast().message().path("content").asText())
                .isEqualTo("message 499");
        var whole = ark("GET", base + "/conversations/" + conversation, null);
        assertThat(whole.json().path("messages")).hasSize(500);
    }

    /**
     * Appends {@code messages} (JSON texts) to a conversation as ARK's controller appends a turn,
     * in requests of 5,000 (its append-many shape), so that tens of thousands go in seconds.
     */
    void appendMany(String conversation, List<String> messages) {
        for (int from = 0; from < messages.size(); from += 5_000) {
            post(
                    conversation,
                    "bulk-" + from,
                    String.join(
                            ",", messages.subList(from, Math.min(messages.size(), from + 5_000))));
        }
    }

    static String userMessage(int n) {
        return "{\"role\":\"user\",\"content\":\"message " + n + "\"}";
    }

    static final String SYSTEM_MESSAGE =
            "{\"role\":\"system\",\"content\":\"You are the release agent. Never deploy on"
                    + " Fridays.\"}";

    /**
     * GetMessages as ARK's HTTP memory client sends it ({@code fetchMessageRecords}: only {@code
     * conversation_id}, JSON accepted, the Memory's headers), decoded as it decodes the answer: it
     * keeps {@code items} and nothing else, and sends them all to the model.
     */
    HttpResponse<String> arkGetMessages(String conversation) {
        return send(
                "GET", base + "/messages?conversation_id=" + conversation, null, CairnCalls.ADMIN);
    }

    /** A new conversation of a system message, then user messages "message 1".."message n". */
    String conversationOf(int n) {
        String conversation = createConversation();
        List<String> messages = new ArrayList<>();
        messages.add(SYSTEM_MESSAGE);
        for (int i = 1; i <= n; i++) {
            messages.add(userMessage(i));
        }
        long start = System.nanoTime();
        appendMany(conversation, messages);
        System.out.printf(
                "%s: %d messages appended in %d ms (requests of 5,000)%n",
                getClass().getSimpleName(),
                messages.size(),
                (System.nanoTime() - start) / 1_000_000);
        return conversation;
    }

    /**
     * A conversation of {@code size} messages (a system message, then user messages 1..size-1) read
     * as ARK's client reads it: the history bound's window, with the system message first and the
     * newest message last, and the header and log line that say what was left out; and by a paging
     * client, every message.
     */
    void readsALongConversationAsArksClientDoes(String conversation, int size) {
        int bound = ArkSettings.DEFAULT_HISTORY_MESSAGES;
        HttpResponse<String> r;
        try (LogCapture logs = new LogCapture(ArkRoutes.class.getName())) {
            long start = System.nanoTime();
            r = arkGetMessages(conversation);
            System.out.printf(
                    "%s: history of %d messages read in %d ms (%d bytes)%n",
                    getClass().getSimpleName(),
                    size,
                    (System.nanoTime() - start) / 1_000_000,
                    r.body().length());
            assertThat(logs.records())
                    .extracting(java.util.logging.LogRecord::getMessage)
                    .filteredOn(m -> m.startsWith("ARK history of conversation"))
                    .singleElement()
                    .asString()
                    .contains(conversation, size + " messages", "left out " + (size - bound));
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ArkClientShapes.MessagesResponse page = ArkClientShapes.decode(r.body());
        List<String> contents =
                page.items().stream().map(i -> i.message().path("content").asText()).toList();
        assertThat(contents).as("the bound: " + bound).hasSize(bound);
        assertThat(page.items().getFirst().message()).isEqualTo(tree(SYSTEM_MESSAGE));
        assertThat(contents.get(1)).isEqualTo("message " + (size - bound + 1));
        assertThat(contents.getLast()).as("the newest turn").isEqualTo("message " + (size - 1));
        assertThat(page.items()).extracting(ArkClientShapes.MessageRecord::sequence).isSorted();
        assertThat(page.total()).isEqualTo(size);
        assertThat(page.hasMore()).isFalse();
        assertThat(page.nextCursor()).isNull();
        assertThat(r.headers().firstValue(ArkRoutes.HISTORY_OMITTED_HEADER))
                .contains(Long.toString(size - bound));

        // The broker's GET /conversations/{id} answers the same window.
        HttpResponse<String> whole =
                send("GET", base + "/conversations/" + conversation, null, CairnCalls.ADMIN);
        JsonNode wholeMessages = tree(whole.body()).path("messages");
        assertThat(wholeMessages).hasSize(bound);
        assertThat(wholeMessages.get(0).path("message")).isEqualTo(tree(SYSTEM_MESSAGE));
        assertThat(wholeMessages.get(bound - 1).path("message").path("content").asText())
                .isEqualTo("message " + (size - 1));
        assertThat(whole.headers().firstValue(ArkRoutes.HISTORY_OMITTED_HEADER))
                .contains(Long.toString(size - bound));

        // A paging client still reads every message, in order.
        List<String> paged = new ArrayList<>();
        String cursor = "0";
        while (cursor != null) {
            JsonNode p =
                    ark(
                                    "GET",
                                    base
                                            + "/messages?limit=1000&conversation_id="
                                            + conversation
                                            + "&cursor="
                                            + cursor,
                                    null)
                            .json();
            p.path("items").forEach(i -> paged.add(i.path("message").path("content").asText()));
            cursor = p.path("hasMore").asBoolean() ? p.path("nextCursor").asText() : null;
        }
        assertThat(paged).hasSize(size);
        assertThat(paged.getLast()).isEqualTo("message " + (size - 1));
    }

    @Test
    void readsAConversationAtTheBoundWholeAndOneMessageLongerWithItsNewestAndItsSystemMessage() {
        int bound = ArkSettings.DEFAULT_HISTORY_MESSAGES;
        String conversation = conversationOf(bound - 1);

        HttpResponse<String> r = arkGetMessages(conversation);

        ArkClientShapes.MessagesResponse page = ArkClientShapes.decode(r.body());
        assertThat(page.items()).hasSize(bound);
        assertThat(page.total()).isEqualTo(bound);
        assertThat(page.items().getFirst().message()).isEqualTo(tree(SYSTEM_MESSAGE));
        assertThat(page.items().get(1).message().path("content").asText()).isEqualTo("message 1");
        assertThat(page.items().getLast().message().path("content").asText())
                .isEqualTo("message " + (bound - 1));
        assertThat(r.headers().firstValue(ArkRoutes.HISTORY_OMITTED_HEADER)).isEmpty();

        // 10,001 messages: the next turn must reach the model, the oldest user turn gives way.
        post(conversation, "next", userMessage(bound));
        readsALongConversationAsArksClientDoes(conversation, bound + 1);
    }

    @Test
    void readsAConversationOfFiftyThousandMessagesWithItsNewestAndItsSystemMessage() {
        readsALongConversationAsArksClientDoes(conversationOf(49_999), 50_000);
    }

    @Test
    void deletesAreIdempotentAndAnEmptiedConversationIsNotFound() {
        String conversation = createConversation();
        post(conversation, "q1", "{\"role\":\"user\",\"content\":\"one\"}");
        post(conversation, "q2", "{\"role\":\"user\",\"content\":\"two\"}");

        for (int i = 0; i < 2; i++) {
            var r =
                    ark(
                            "DELETE",
                            base + "/conversations/" + conversation + "/queries/q1/messages",
                            null);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().path("status").asText()).isEqualTo("success");
            assertThat(r.json().path("message").asText()).isNotBlank();
        }
        assertThat(
                        ark("GET", base + "/messages?conversation_id=" + conversation, null)
                                .json()
                                .path("total")
                                .asLong())
                .isEqualTo(1);
        for (int i = 0; i < 2; i++) {
            var r = ark("DELETE", base + "/queries/q2/messages", null);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().path("status").asText()).isEqualTo("success");
        }
        assertArkError(ark("GET", base + "/conversations/" + conversation, null), 404, "NOT_FOUND");
        for (int i = 0; i < 2; i++) {
            var r = ark("DELETE", base + "/conversations/" + conversation, null);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().path("status").asText()).isEqualTo("success");
        }
        assertThat(texts(ark("GET", base + "/conversations", null).json().path("conversations")))
                .doesNotContain(conversation);
    }

    @Test
    void expiredMessagesAreNotReturned() throws InterruptedException {
        String conversation = createConversation();
        var r =
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q\",\"ttl_seconds\":1,\"messages\":[{\"role\":\"user\",\"content\":\"brief\"}]}");
        assertThat(r.status()).isEqualTo(200);
        post(conversation, "q", "{\"role\":\"user\",\"content\":\"lasting\"}");
        assertThat(
                        ark("GET", base + "/messages?conversation_id=" + conversation, null)
                                .json()
                                .path("total")
                                .asLong())
                .isEqualTo(2);

        Thread.sleep(1100);

        JsonNode page = ark("GET", base + "/messages?conversation_id=" + conversation, null).json();
        assertThat(page.path("total").asLong()).isEqualTo(1);
        assertThat(page.path("items").get(0).path("message").path("content").asText())
                .isEqualTo("lasting");
    }

    @Test
    void conversationCreateIsOpenAndNothingElseIsOpen() {
        // The create stores nothing: an id handed out does not show up until it has messages.
        String unused = createConversation();
        assertThat(texts(ark("GET", base + "/conversations", null).json().path("conversations")))
                .doesNotContain(unused);
        for (String[] route :
                new String[][] {
                    {"GET", "/conversations"},
                    {"GET", "/conversations/" + unused},
                    {"DELETE", "/conversations/" + unused},
                    {"GET", "/messages?conversation_id=" + unused},
                    {"POST", "/messages"},
                    {"DELETE", "/queries/q/messages"},
                }) {
            assertArkError(ark(route[0], base + route[1], "{}", null), 401, "BAD_REQUEST");
        }
    }

    /**
     * ARK's controller creates one conversation per new query, from one pod address, and never
     * retries: 300 creates within 10 s, each with one token and then without any (as ARK's client
     * really sends them), are all answered 201 under the default limits.
     */
    @Test
    void threeHundredCreatesInTenSecondsFromOneAddressAreAllCreated() throws Exception {
        for (String token : new String[] {CairnCalls.ADMIN, null}) {
            long start = System.nanoTime();
            List<java.util.concurrent.Future<Integer>> answers = new ArrayList<>();
            try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 300; i++) {
                    answers.add(
                            threads.submit(
                                    () ->
                                            ark("POST", base + "/conversations", null, token)
                                                    .status()));
                }
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            List<Integer> statuses = new ArrayList<>();
            for (var answer : answers) {
                statuses.add(answer.get());
            }
            assertThat(millis).as("300 creates at once").isLessThan(10_000);
            assertThat(statuses)
                    .as(token == null ? "without a token" : "with one token")
                    .hasSize(300)
                    .containsOnly(201);
        }
    }

    @Test
    void errorsUseArksEnvelope() {
        String conversation = createConversation();
        assertArkError(
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\"" + conversation + "\",\"messages\":[]}"),
                400,
                "VALIDATION_ERROR");
        assertArkError(
                ark("POST", base + "/messages", "{\"query_id\":\"q\",\"messages\":[]}"),
                400,
                "VALIDATION_ERROR");
        assertArkError(
                ark("POST", base + "/messages", "{\"conversation_id\":\"c\",\"query_id\":\"q\"}"),
                400,
                "VALIDATION_ERROR");
        assertArkError(
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\"c\",\"query_id\":\"q\",\"messages\":{}}"),
                400,
                "VALIDATION_ERROR");
        assertArkError(
                ark("POST", base + "/messages", "{\"conversation_id\": "), 400, "BAD_REQUEST");
        assertArkError(ark("GET", base + "/messages?cursor=-1", null), 400, "PAGINATION_ERROR");
        assertArkError(ark("GET", base + "/messages?cursor=abc", null), 400, "PAGINATION_ERROR");
        assertArkError(ark("GET", base + "/messages?limit=0", null), 400, "PAGINATION_ERROR");
        assertArkError(ark("GET", base + "/messages?limit=1001", null), 400, "PAGINATION_ERROR");
        assertArkError(
                ark("GET", base + "/conversations/no-such-conversation", null), 404, "NOT_FOUND");
        assertArkError(ark("GET", "/ark/no-such-namespace/conversations", null), 404, "NOT_FOUND");
        assertArkError(ark("GET", base + "/no-such-resource", null), 404, "NOT_FOUND");
        assertArkError(cairn.call("GET", base + "/conversations", null, null), 401, "BAD_REQUEST");
        assertArkError(
                cairn.call("GET", base + "/conversations", "wrong-token", null),
                401,
                "BAD_REQUEST");
        assertArkError(ark("PUT", base + "/messages", "{}"), 405, "BAD_REQUEST");
        // Past the per-message limit: 413 in ARK's envelope, nothing of the batch stored.
        String big = "x".repeat(Transcripts.MAX_MESSAGE_BYTES);
        assertArkError(
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\",\"content\":\"ok\"},"
                                + "{\"role\":\"tool\",\"content\":\""
                                + big
                                + "\"}]}"),
                413,
                "BAD_REQUEST");
        assertThat(
                        ark("GET", base + "/messages?conversation_id=" + conversation, null)
                                .json()
                                .path("total")
                                .asLong())
                .isZero();
    }

    @Test
    void storesWhatTheScannerFindsAsSentAndMarksIt() {
        String conversation = createConversation();
        // ANSI colours, a bidi override, a 300 KiB tool result with a secret in it.
        String ansi = "{\"role\":\"tool\",\"content\":\"\\u001b[31mFAILED\\u001b[0m build\"}";
        String bidi = "{\"role\":\"user\",\"content\":\"abc\\u202edef\"}";
        String large =
                "{\"role\":\"tool\",\"tool_call_id\":\"call_9\",\"content\":\"key AKIAIOSFODNN7EXAMPLE "
                        + "y".repeat(300 * 1024)
                        + "\"}";
        String plain = "{\"role\":\"assistant\",\"content\":\"all good\"}";
        var r =
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q\",\"messages\":["
                                + String.join(",", ansi, bidi, large, plain)
                                + "]}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        var read = ark("GET", base + "/messages?conversation_id=" + conversation, null);
        ArkClientShapes.MessagesResponse page = ArkClientShapes.decode(read.body());
        assertThat(page.items()).hasSize(4);
        JsonNode items = read.json().path("items");
        assertThat(items.get(0).path("message").path("content").asText())
                .isEqualTo("\u001b[31mFAILED\u001b[0m build");
        // text styles are formatting, not a signal
        assertThat(items.get(0).has("flags")).isFalse();
        // a bidi override is stored as sent and marked, which keeps it out of search and contexts
        assertThat(items.get(1).path("message").path("content").asText()).isEqualTo("abc\u202edef");
        assertThat(texts(items.get(1).path("flags"))).containsExactly("bidi_control");
        assertThat(items.get(2).path("message").path("content").asText())
                .hasSizeGreaterThan(300 * 1024)
                .doesNotContain("AKIAIOSFODNN7EXAMPLE");
        assertThat(items.get(2).has("flags")).as("size alone is no flag").isFalse();
        assertThat(items.get(3).has("flags")).isFalse();
    }

    @Test
    void storesAnyJsonMessageAndRedactsSecretsInsideIt() {
        String conversation = createConversation();
        String a2a =
                "{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"done\"}],\"metadata\":{\"n\":[1,2.5,true,null]}}";
        post(conversation, "q", a2a);
        post(conversation, "q", "\"plain string message\"");
        post(
                conversation,
                "q",
                "{\"role\":\"user\",\"content\":\"my key is AKIAIOSFODNN7EXAMPLE ok\"}");

        JsonNode items =
                ark("GET", base + "/messages?conversation_id=" + conversation, null)
                        .json()
                        .path("items");
        assertThat(items.get(0).path("message")).isEqualTo(tree(a2a));
        assertThat(items.get(1).path("message").asText()).isEqualTo("plain string message");
        assertThat(items.get(2).path("message").path("content").asText())
                .doesNotContain("AKIAIOSFODNN7EXAMPLE")
                .startsWith("my key is ");
    }

    @Test
    void memoryStatusCountsAndPurgeEmptiesTheNamespace() {
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"purge\"}");
        String p = "/ark/purge";
        String first = "11111111-1111-4111-8111-111111111111";
        String second = "22222222-2222-4222-8222-222222222222";
        for (String[] turn :
                new String[][] {{first, "q1"}, {first, "q1"}, {first, "q2"}, {second, "q9"}}) {
            var r =
                    ark(
                            "POST",
                            p + "/messages",
                            "{\"conversation_id\":\""
                                    + turn[0]
                                    + "\",\"query_id\":\""
                                    + turn[1]
                                    + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        var status = ark("GET", p + "/memory-status", null);
        assertThat(status.status()).as(status.body()).isEqualTo(200);
        JsonNode s = status.json();
        assertThat(s.path("total_conversations").asLong()).isEqualTo(2);
        assertThat(s.path("total_messages").asLong()).isEqualTo(4);
        assertThat(s.path("conversations").path(first).path("message_count").asLong()).isEqualTo(3);
        assertThat(s.path("conversations").path(first).path("query_count").asLong()).isEqualTo(2);
        assertThat(s.path("conversations").path(second).path("message_count").asLong())
                .isEqualTo(1);

        var reader =
                cairn.call(
                                "POST",
                                "/v1/tokens",
                                CairnCalls.ADMIN,
                                "{\"name\":\"purge-reader\",\"roles\":[\"read\"],\"namespaces\":[\"purge\"]}")
                        .json()
                        .path("token")
                        .asText();
        assertThat(ark("DELETE", p + "/messages", null, reader).status()).isEqualTo(403);
        assertThat(ark("GET", p + "/memory-status", null, reader).status()).isEqualTo(200);
        assertThat(ark("GET", p + "/memory-status", null).json().path("total_messages").asLong())
                .isEqualTo(4);

        var purged = ark("DELETE", p + "/messages", null);
        assertThat(purged.status()).as(purged.body()).isEqualTo(200);
        assertThat(purged.json().path("status").asText()).isEqualTo("success");
        assertThat(purged.json().path("message").asText()).isNotBlank();
        var after = ark("GET", p + "/memory-status", null).json();
        assertThat(after.path("total_conversations").asLong()).isZero();
        assertThat(after.path("total_messages").asLong()).isZero();
        assertThat(after.path("conversations")).isEmpty();
        assertThat(ark("GET", p + "/messages?conversation_id=" + first, null).json().path("items"))
                .isEmpty();
        // The other namespace is untouched.
        assertThat(ark("GET", base + "/memory-status", null).status()).isEqualTo(200);

        ark(
                "POST",
                p + "/messages",
                "{\"conversation_id\":\""
                        + second
                        + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        var conversations = ark("DELETE", p + "/conversations", null);
        assertThat(conversations.status()).as(conversations.body()).isEqualTo(200);
        assertThat(conversations.json().path("status").asText()).isEqualTo("success");
        assertThat(ark("GET", p + "/conversations", null).json().path("conversations")).isEmpty();
    }

    /**
     * {@code GET /messages?watch=true} read line by line, as the broker's SSE clients read it; the
     * lines are queued by a reader thread so the test can wait for each with a deadline.
     */
    final class Watch implements AutoCloseable {
        final int status;
        final java.io.InputStream body;
        final java.util.concurrent.BlockingQueue<String> lines =
                new java.util.concurrent.LinkedBlockingQueue<>();

        Watch(String query) throws Exception {
            this(base, query);
        }

        Watch(String prefix, String query) throws Exception {
            HttpRequest request =
                    HttpRequest.newBuilder(
                                    URI.create(
                                            "http://localhost:"
                                                    + cairn.server.port()
                                                    + prefix
                                                    + "/messages?watch=true"
                                                    + query))
                            .header("Authorization", "Bearer " + CairnCalls.ADMIN)
                            .header("Accept", "text/event-stream")
                            .build();
            HttpResponse<java.io.InputStream> response =
                    cairn.http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            status = response.statusCode();
            body = response.body();
            if (status == 200) {
                assertThat(response.headers().firstValue("content-type").orElse(""))
                        .startsWith("text/event-stream");
            }
            Thread.ofVirtual()
                    .start(
                            () -> {
                                try (var reader =
                                        new java.io.BufferedReader(
                                                new java.io.InputStreamReader(
                                                        body,
                                                        java.nio.charset.StandardCharsets.UTF_8))) {
                                    String line;
                                    while ((line = reader.readLine()) != null) {
                                        lines.add(line);
                                    }
                                } catch (IOException e) {
                                    // closed by the test
                                }
                            });
        }

        /** The next non-empty line (events end with an empty one). */
        String next() throws InterruptedException {
            while (true) {
                String line = lines.poll(20, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(line).as("a line within 20 s").isNotNull();
                if (!line.isEmpty()) {
                    return line;
                }
            }
        }

        /** The next event's item, decoded as the broker's clients decode it. */
        ArkClientShapes.MessageRecord item() throws InterruptedException {
            String line = next();
            while (line.equals(": heartbeat")) {
                line = next();
            }
            assertThat(line).startsWith("data: ");
            return ArkClientShapes.decode("{\"items\":[" + line.substring("data: ".length()) + "]}")
                    .items()
                    .getFirst();
        }

        /** No event arrives within a short while (heartbeat comments may). */
        void quiet() throws InterruptedException {
            String line = lines.poll(1500, java.util.concurrent.TimeUnit.MILLISECONDS);
            while (line != null && (line.isEmpty() || line.equals(": heartbeat"))) {
                line = lines.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            assertThat(line).isNull();
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    @Test
    void watchReplaysAfterTheCursorThenStreamsAppendsLive() throws Exception {
        String conversation = createConversation();
        String other = createConversation();
        appendNumbered(conversation, 3);
        List<Long> sequences = new ArrayList<>();
        ark("GET", base + "/messages?conversation_id=" + conversation, null)
                .json()
                .path("items")
                .forEach(i -> sequences.add(i.path("sequence").asLong()));
        try (Watch watch =
                new Watch("&conversation_id=" + conversation + "&cursor=" + sequences.get(0))) {
            assertThat(watch.status).isEqualTo(200);
            assertThat(watch.next()).isEqualTo(": connected");
            // Replay: the items after the cursor, in order, as the broker's item JSON.
            var second = watch.item();
            assertThat(second.sequence()).isEqualTo(sequences.get(1));
            assertThat(second.conversationId()).isEqualTo(conversation);
            assertThat(second.queryId()).isEqualTo("bulk");
            assertThat(second.message().path("content").asText()).isEqualTo("message 1");
            assertThat(watch.item().message().path("content").asText()).isEqualTo("message 2");
            watch.quiet();
            // Live: appends to the conversation arrive; another conversation's do not.
            post(other, "q-other", "{\"role\":\"user\",\"content\":\"elsewhere\"}");
            post(
                    conversation,
                    "q-live",
                    "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\","
                            + "\"type\":\"function\",\"function\":{\"name\":\"f\","
                            + "\"arguments\":\"{}\"}}]}");
            var live = watch.item();
            assertThat(live.queryId()).isEqualTo("q-live");
            assertThat(live.sequence()).isGreaterThan(sequences.get(2));
            assertThat(live.message().path("tool_calls").get(0).path("id").asText())
                    .isEqualTo("c1");
            watch.quiet();
        }
        // Without a cursor only what is appended from now on comes, of every conversation.
        try (Watch watch = new Watch("")) {
            assertThat(watch.next()).isEqualTo(": connected");
            watch.quiet();
            post(other, "q-next", "{\"role\":\"user\",\"content\":\"next\"}");
            var next = watch.item();
            assertThat(next.conversationId()).isEqualTo(other);
            assertThat(next.message().path("content").asText()).isEqualTo("next");
        }
        assertArkError(ark("GET", base + "/messages?watch=yes", null), 400, "VALIDATION_ERROR");
        assertThat(cairn.call("GET", base + "/messages?watch=true", null, null).status())
                .isEqualTo(401);
    }

    @Test
    void watchesPerNamespaceAreBoundedAndAClosedWatchGivesItsSlotBackWithinFiveSeconds()
            throws Exception {
        // A namespace of its own: watches left behind must not count against the other tests.
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ark-watch\"}");
        String p = "/ark/ark-watch";
        List<Watch> watches = new ArrayList<>();
        try {
            for (int i = 0; i < MessageWatch.MAX_WATCHERS_PER_NAMESPACE; i++) {
                Watch w = new Watch(p, "");
                watches.add(w);
                assertThat(w.status).isEqualTo(200);
                assertThat(w.next()).isEqualTo(": connected");
            }
            var refused = send("GET", p + "/messages?watch=true", null, CairnCalls.ADMIN);
            assertArkError(
                    new CairnCalls.Response(
                            refused.statusCode(), "application/json", refused.body()),
                    429,
                    "BAD_REQUEST");
            assertThat(tree(refused.body()).path("error").path("message").asText())
                    .contains("message watches open already");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();

            // One client leaves, nothing is appended: the server notices by its heartbeats and a
            // new watch gets the slot.
            long closed = System.nanoTime();
            watches.removeFirst().close();
            int status;
            do {
                Thread.sleep(100);
                try (Watch again = new Watch(p, "")) {
                    status = again.status;
                }
            } while (status == 429
                    && System.nanoTime() - closed < Duration.ofSeconds(10).toNanos());
            long freedMillis = (System.nanoTime() - closed) / 1_000_000;
            assertThat(status).isEqualTo(200);
            assertThat(freedMillis)
                    .as("slot free again after %d ms", freedMillis)
                    .isLessThan(5_000);
            System.out.printf("a closed watch's slot was free again after %d ms%n", freedMillis);
        } finally {
            for (Watch w : watches) {
                w.close();
            }
        }
        // Every client leaves: after 5 s a full namespace's worth of watches is admitted again,
        // without any append to wake the old ones.
        Thread.sleep(5_000);
        List<Watch> again = new ArrayList<>();
        try {
            for (int i = 0; i < MessageWatch.MAX_WATCHERS_PER_NAMESPACE; i++) {
                Watch w = new Watch(p, "");
                again.add(w);
                assertThat(w.status)
                        .as("watch %d of %d", i + 1, MessageWatch.MAX_WATCHERS_PER_NAMESPACE)
                        .isEqualTo(200);
            }
        } finally {
            for (Watch w : again) {
                w.close();
            }
        }
    }

    @Test
    void aWatchOnOneConversationSendsHeartbeatsWhileOthersAreAppendedTo() throws Exception {
        String watched = createConversation();
        String busy = createConversation();
        try (Watch watch = new Watch("&conversation_id=" + watched)) {
            assertThat(watch.next()).isEqualTo(": connected");
            long start = System.nanoTime();
            // appends elsewhere keep waking the watch; it still writes its heartbeat on time
            Thread appender =
                    Thread.ofVirtual()
                            .start(
                                    () -> {
                                        for (int i = 0; i < 12; i++) {
                                            post(busy, "q" + i, userMessage(i));
                                            try {
                                                Thread.sleep(250);
                                            } catch (InterruptedException e) {
                                                return;
                                            }
                                        }
                                    });
            assertThat(watch.next()).isEqualTo(": heartbeat");
            long millis = (System.nanoTime() - start) / 1_000_000;
            appender.join();
            assertThat(millis)
                    .isBetween(
                            ArkRoutes.HEARTBEAT.toMillis() - 100,
                            ArkRoutes.HEARTBEAT.toMillis() + 1_500);
        }
    }

    void post(String conversation, String query, String message) {
        var r =
                ark(
                        "POST",
                        base + "/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\""
                                + query
                                + "\",\"messages\":["
                                + message
                                + "]}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static JsonNode tree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
