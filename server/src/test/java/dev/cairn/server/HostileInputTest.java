package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile input, table-driven: every JSON route crossed with every malformed body (content types,
 * trailing content, ill-formed UTF-8, NUL characters, nesting, truncation), every range-checked
 * field with values outside its range, identifiers outside the one alphabet in bodies and paths,
 * and protocol-level abuse over a raw socket (lying or negative {@code Content-Length}, bad header
 * bytes, huge headers, long URLs, half-closed connections). Each case checks the status and that
 * the answer is the route's error document (problem+json, ARK's or Orloj's envelope) with a detail
 * in plain words: no stack trace, no library class or method name. The PostgreSQL subclass runs the
 * same table against the other store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/hostile";

    /** Words that must never appear in an error answer. */
    static final List<String> LEAKS =
            List.of(
                    "jackson",
                    "fasterxml",
                    "helidon",
                    "exception",
                    "java.",
                    "dev.cairn",
                    "streamreadconstraints",
                    "getmaxnestingdepth",
                    "\tat ",
                    "psql",
                    "sqlite");

    ServerFixture cairn;
    RawHttp raw;
    String memoryId;

    /** The server settings; the PostgreSQL subclass points them at a database. */
    ServerSettings settings(Path dataDir) {
        return ServerSettings.defaults(dataDir).withPort(0).withAdminToken(A);
    }

    @BeforeAll
    void start(@TempDir Path dataDir) {
        cairn = new ServerFixture(settings(dataDir));
        raw = new RawHttp(cairn.server.port());
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"hostile\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
        var memory =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"The build runs on Java 25\"}");
        assertThat(memory.status()).as(memory.body()).isEqualTo(201);
        memoryId = memory.json().path("id").asText();
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    /** How a route answers errors. */
    enum Envelope {
        PROBLEM,
        ARK,
        ORLOJ;

        static Envelope of(String path) {
            return path.startsWith("/ark/") ? ARK : path.startsWith("/orloj/") ? ORLOJ : PROBLEM;
        }
    }

    /** A JSON route with a body it accepts; the table breaks the body in every way. */
    record Route(String method, String path, String validBody) {}

    /** One row: a request and the status it must get. */
    record Case(
            String name, String method, String path, String contentType, byte[] body, int status) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Route> JSON_ROUTES =
            List.of(
                    new Route(
                            "POST",
                            NS + "/documents",
                            "{\"id\":\"doc-1\",\"title\":\"t\",\"content\":\"c\",\"format\":\"text\"}"),
                    new Route("POST", NS + "/retrieve", "{\"query\":\"java\"}"),
                    new Route("POST", NS + "/memories", "{\"type\":\"fact\",\"content\":\"c\"}"),
                    new Route("PUT", NS + "/memories/{memory}", "{\"content\":\"c\"}"),
                    new Route("POST", NS + "/recall", "{\"query\":\"java\"}"),
                    new Route("POST", NS + "/extract", "{\"query\":\"q\",\"response\":\"r\"}"),
                    new Route(
                            "POST",
                            NS + "/proposals",
                            "{\"type\":\"memory\",\"title\":\"t\",\"content\":\"c\"}"),
                    new Route("POST", NS + "/transcripts/search", "{\"query\":\"java\"}"),
                    new Route(
                            "POST",
                            NS + "/judge",
                            "{\"answer\":\"a\",\"evidence\":[{\"id\":\"e\",\"text\":\"t\"}]}"),
                    new Route(
                            "POST",
                            NS + "/relations",
                            "{\"from\":\"a\",\"to\":\"b\",\"type\":\"depends_on\"}"),
                    new Route(
                            "POST",
                            "/ark/hostile/messages",
                            "{\"conversation_id\":\"c1\",\"query_id\":\"q1\","
                                    + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
                    new Route("POST", "/orloj/hostile/put", "{\"key\":\"k\",\"value\":\"v\"}"),
                    new Route("POST", "/orloj/hostile/get", "{\"key\":\"k\"}"),
                    new Route("POST", "/orloj/hostile/search", "{\"query\":\"java\"}"),
                    new Route("POST", "/orloj/hostile/list", "{\"prefix\":\"k\"}"),
                    new Route("POST", NS + "/tools/retrieve", "{\"query\":\"java\"}"),
                    new Route("POST", NS + "/tools/recall_memory", "{\"query\":\"java\"}"),
                    new Route("POST", "/v1/namespaces", "{\"name\":\"other\"}"));

    static Stream<Case> malformedBodies() {
        List<Case> cases = new ArrayList<>();
        for (Route r : JSON_ROUTES) {
            String name = r.method() + " " + r.path() + ": ";
            String valid = r.validBody();
            // the first string value, where the bad bytes go
            int quote = valid.indexOf("\":\"") + 3;
            String before = valid.substring(0, quote);
            String after = valid.substring(quote);
            cases.add(c(name + "content type ///", r, "///", utf8(valid), 415));
            cases.add(c(name + "content type text/plain", r, "text/plain", utf8(valid), 415));
            cases.add(c(name + "content type ;;", r, "application/json;;=;", utf8(valid), 415));
            cases.add(c(name + "trailing word", r, JSON, utf8(valid + " xyz"), 400));
            cases.add(c(name + "trailing object", r, JSON, utf8(valid + valid), 400));
            cases.add(c(name + "trailing bracket", r, JSON, utf8(valid + "]"), 400));
            cases.add(
                    c(
                            name + "overlong slash C0 AF",
                            r,
                            JSON,
                            bytes(before, new byte[] {(byte) 0xC0, (byte) 0xAF}, after),
                            400));
            cases.add(
                    c(
                            name + "CESU-8 lone surrogate",
                            r,
                            JSON,
                            bytes(
                                    before,
                                    new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                                    after),
                            400));
            cases.add(
                    c(
                            name + "byte FF",
                            r,
                            JSON,
                            bytes(before, new byte[] {(byte) 0xFF}, after),
                            400));
            cases.add(
                    c(
                            name + "truncated sequence",
                            r,
                            JSON,
                            bytes(before, new byte[] {(byte) 0xE2, (byte) 0x82}, after),
                            400));
            cases.add(
                    c(
                            name + "escaped NUL in a value",
                            r,
                            JSON,
                            utf8(before + "a\\u0000b" + after),
                            400));
            cases.add(
                    c(
                            name + "escaped NUL in a field name",
                            r,
                            JSON,
                            utf8(valid.substring(0, valid.length() - 1) + ",\"x\\u0000\":1}"),
                            400));
            cases.add(
                    c(
                            name + "raw control character",
                            r,
                            JSON,
                            utf8(before + "a\u0001b" + after),
                            400));
            cases.add(c(name + "empty body", r, JSON, new byte[0], 400));
            cases.add(c(name + "array", r, JSON, utf8("[" + valid + "]"), 400));
            cases.add(c(name + "null", r, JSON, utf8("null"), 400));
            cases.add(
                    c(
                            name + "unterminated",
                            r,
                            JSON,
                            utf8(valid.substring(0, valid.length() - 1)),
                            400));
            cases.add(c(name + "nested 2000 deep", r, JSON, utf8(nested(2000)), 400));
            cases.add(
                    c(
                            name + "repeated field",
                            r,
                            JSON,
                            utf8(valid.substring(0, valid.length() - 1) + "," + valid.substring(1)),
                            400));
            cases.add(c(name + "bad escape", r, JSON, utf8(before + "\\x41" + after), 400));
        }
        return cases.stream();
    }

    static Stream<Case> outOfRangeFields() {
        List<Case> cases = new ArrayList<>();
        String ark =
                "{\"conversation_id\":\"c1\",\"query_id\":\"q1\",\"messages\":[],\"ttl_seconds\":";
        for (String ttl :
                List.of(
                        "9223372036854775807",
                        "10000000000000000",
                        "1e16",
                        "-1",
                        "315360001",
                        "1.5")) {
            cases.add(
                    post("ark ttl_seconds " + ttl, "/ark/hostile/messages", ark + ttl + "}", 400));
        }
        String memory = "{\"type\":\"fact\",\"content\":\"c\",";
        for (String f :
                List.of(
                        "\"ttlDays\":2147483647",
                        "\"ttlDays\":-1",
                        "\"ttlDays\":3651",
                        "\"ttlDays\":99999999999",
                        "\"confidence\":2",
                        "\"importance\":-0.5",
                        "\"confidence\":1e400")) {
            cases.add(post("memory " + f, NS + "/memories", memory + f + "}", 400));
        }
        String recall = "{\"query\":\"java\",";
        for (String f :
                List.of(
                        "\"limit\":0",
                        "\"limit\":201",
                        "\"limit\":2147483648",
                        "\"threshold\":2",
                        "\"maxTokens\":-1",
                        "\"maxTokens\":2147483647",
                        "\"timeoutMs\":0",
                        "\"timeoutMs\":-5",
                        "\"timeoutMs\":2147483647")) {
            cases.add(post("recall " + f, NS + "/recall", recall + f + "}", 400));
        }
        String retrieve = "{\"query\":\"java\",";
        for (String f :
                List.of(
                        "\"topK\":0",
                        "\"topK\":1000000",
                        "\"candidates\":-1",
                        "\"candidates\":2147483647",
                        "\"k\":0",
                        "\"k\":-7")) {
            cases.add(post("retrieve " + f, NS + "/retrieve", retrieve + f + "}", 400));
        }
        for (String f : List.of("\"limit\":0", "\"limit\":-1", "\"limit\":2147483647")) {
            cases.add(
                    post(
                            "transcript search " + f,
                            NS + "/transcripts/search",
                            "{\"query\":\"java\"," + f + "}",
                            400));
        }
        for (String f : List.of("0", "-1", "9999999999", "1.5", "\"5\"")) {
            cases.add(
                    post(
                            "orloj top_k " + f,
                            "/orloj/hostile/search",
                            "{\"query\":\"java\",\"top_k\":" + f + "}",
                            400));
        }
        String longQuery = "q".repeat(4097);
        cases.add(
                post(
                        "recall query 4097 chars",
                        NS + "/recall",
                        "{\"query\":\"" + longQuery + "\"}",
                        400));
        cases.add(
                post(
                        "recall query 1 MiB",
                        NS + "/recall",
                        "{\"query\":\"" + "q".repeat(1 << 20) + "\"}",
                        400));
        cases.add(
                post(
                        "retrieve query 4097 chars",
                        NS + "/retrieve",
                        "{\"query\":\"" + longQuery + "\"}",
                        400));
        cases.add(
                post(
                        "transcript search query 4097 chars",
                        NS + "/transcripts/search",
                        "{\"query\":\"" + longQuery + "\"}",
                        400));
        cases.add(
                post(
                        "orloj search query 4097 chars",
                        "/orloj/hostile/search",
                        "{\"query\":\"" + longQuery + "\"}",
                        400));
        cases.add(
                post(
                        "judge query 4097 chars",
                        NS + "/judge",
                        "{\"query\":\"" + longQuery + "\",\"answer\":\"a\"}",
                        400));
        for (String q :
                List.of("limit=0", "limit=-1", "limit=99999999999", "limit=abc", "limit=1001")) {
            cases.add(get("memories ?" + q, NS + "/memories?" + q, 400));
            cases.add(get("documents ?" + q, NS + "/documents?" + q, 400));
            cases.add(get("proposals ?" + q, NS + "/proposals?" + q, 400));
            cases.add(get("entities ?" + q, NS + "/entities?" + q, 400));
            cases.add(get("ark messages ?" + q, "/ark/hostile/messages?" + q, 400));
        }
        for (String q : List.of("relations=-1", "relations=101", "relations=abc")) {
            cases.add(get("entities ?" + q, NS + "/entities?" + q, 400));
        }
        cases.add(get("entity ?relations=-1", NS + "/entities/x?relations=-1", 400));
        for (String q : List.of("cursor=-1", "cursor=abc", "cursor=99999999999999999999")) {
            cases.add(get("ark messages ?" + q, "/ark/hostile/messages?" + q, 400));
            // one rule for every list: a cursor no page gave out is a 400 naming the parameter
            cases.add(get("memories ?" + q, NS + "/memories?" + q, 400));
            cases.add(get("documents ?" + q, NS + "/documents?" + q, 400));
            cases.add(get("proposals ?" + q, NS + "/proposals?" + q, 400));
            cases.add(get("feedback ?" + q, NS + "/feedback?" + q, 400));
            cases.add(get("namespaces ?" + q, "/v1/namespaces?" + q, 400));
        }
        return cases.stream();
    }

    /** Identifiers outside the alphabet, in bodies; and control characters in paths and queries. */
    static Stream<Case> identifiers() {
        List<Case> cases = new ArrayList<>();
        List<String> badIds =
                List.of(
                        "a\\u0000b",
                        "a/b",
                        "..",
                        ".",
                        "a\\u200bb",
                        "a\\u202eb",
                        "a\\udb40\\udc41b",
                        " padded",
                        "padded ",
                        "tab\\tid",
                        "line\\nbreak",
                        "x".repeat(513));
        for (String id : badIds) {
            String shown = id.length() > 20 ? id.length() + " chars" : id;
            cases.add(
                    post(
                            "document id " + shown,
                            NS + "/documents",
                            "{\"id\":\""
                                    + id
                                    + "\",\"title\":\"t\",\"content\":\"c\",\"format\":\"text\"}",
                            400));
            cases.add(
                    post(
                            "ark conversation_id " + shown,
                            "/ark/hostile/messages",
                            "{\"conversation_id\":\""
                                    + id
                                    + "\",\"query_id\":\"q\",\"messages\":[]}",
                            400));
            cases.add(
                    post(
                            "ark query_id " + shown,
                            "/ark/hostile/messages",
                            "{\"conversation_id\":\"c\",\"query_id\":\""
                                    + id
                                    + "\",\"messages\":[]}",
                            400));
            if (!id.equals("a/b") && !id.equals("..") && !id.equals(".") && id.length() < 100) {
                cases.add(
                        post(
                                "orloj key " + shown,
                                "/orloj/hostile/put",
                                "{\"key\":\"" + id + "\",\"value\":\"v\"}",
                                400));
            }
        }
        for (String segment : List.of("%00", "a%00b", "%0a", "%0d%0aX-Forged:%201", "%7f")) {
            cases.add(get("memory path " + segment, NS + "/memories/" + segment, 400));
            cases.add(get("document path " + segment, NS + "/documents/" + segment, 400));
            cases.add(get("entity path " + segment, NS + "/entities/" + segment, 400));
            cases.add(get("proposal path " + segment, NS + "/proposals/" + segment, 400));
            cases.add(get("trace path " + segment, NS + "/traces/" + segment, 400));
            cases.add(
                    get(
                            "ark conversation path " + segment,
                            "/ark/hostile/conversations/" + segment,
                            400));
            cases.add(delete("delete document path " + segment, NS + "/documents/" + segment));
            cases.add(delete("delete memory path " + segment, NS + "/memories/" + segment));
            cases.add(
                    get(
                            "namespace path " + segment,
                            "/v1/namespaces/" + segment + "/memories",
                            400));
        }
        for (String q : List.of("q=%00", "q=a%00", "tags=%00", "userId=%01x")) {
            cases.add(get("memories ?" + q, NS + "/memories?" + q, 400));
            cases.add(get("documents ?" + q, NS + "/documents?" + q, 400));
        }
        cases.add(
                get("ark ?conversation_id=%00", "/ark/hostile/messages?conversation_id=%00", 400));
        cases.add(get("ark ?query_id=%00", "/ark/hostile/messages?query_id=%00", 400));
        cases.add(get("entities ?q=%00", NS + "/entities?q=%00", 400));
        cases.add(
                post(
                        "judge query NUL",
                        NS + "/judge",
                        "{\"query\":\"a\\u0000\",\"answer\":\"a\"}",
                        400));
        cases.add(
                post(
                        "relation end NUL",
                        NS + "/relations",
                        "{\"from\":\"document:a\\u0000\",\"to\":\"b\",\"type\":\"depends_on\"}",
                        400));
        cases.add(
                post(
                        "memory userId NUL",
                        NS + "/memories",
                        "{\"type\":\"fact\",\"content\":\"c\",\"userId\":\"u\\u0000\"}",
                        400));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedBodies")
    void malformedBodyIsRefusedCleanly(Case c) {
        check(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRangeFields")
    void outOfRangeFieldIsRefusedNamingTheRange(Case c) {
        RawHttp.Answer answer = check(c);
        if (c.name().contains("ttl") || c.name().contains("limit") || c.name().contains("top_k")) {
            assertThat(detail(c, answer)).as(c.name()).containsAnyOf("[", "must be", "<=", ">=");
        }
        if (c.name().contains("cursor") && !c.name().startsWith("ark")) {
            assertThat(detail(c, answer))
                    .as(c.name())
                    .startsWith(
                            "query parameter 'cursor' must be the nextCursor of an earlier page");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("identifiers")
    void illegalIdentifierIsRefusedOnEveryStore(Case c) {
        check(c);
    }

    /** Raw-socket cases: the server's own framing errors. */
    static Stream<Case> protocol() {
        List<Case> cases = new ArrayList<>();
        String post =
                "POST " + NS + "/recall HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + A;
        cases.add(
                raw(
                        "Content-Length -5",
                        post + "\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}",
                        400));
        cases.add(
                raw(
                        "Content-Length abc",
                        post
                                + "\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}",
                        400));
        cases.add(
                raw(
                        "two Content-Length values",
                        post
                                + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}",
                        400));
        cases.add(
                raw(
                        "Content-Length 100, 5 bytes, half-close",
                        post
                                + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"q\":",
                        400));
        cases.add(
                raw(
                        "header with a NUL byte",
                        "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0000b\r\n\r\n",
                        400));
        cases.add(
                raw(
                        "header name with a space",
                        "GET /health HTTP/1.1\r\nHost: localhost\r\nBad Name: a\r\n\r\n",
                        400));
        cases.add(
                raw(
                        "header with a bare CR",
                        "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\rb\r\n\r\n",
                        400));
        cases.add(
                raw(
                        "header without a colon",
                        "GET /health HTTP/1.1\r\nHost: localhost\r\nnocolon\r\n\r\n",
                        400));
        cases.add(raw("garbage request line", "GARBAGE\r\n\r\n", 400));
        cases.add(
                raw(
                        "unknown HTTP version",
                        "GET /health HTTP/7.3\r\nHost: localhost\r\n\r\n",
                        505));
        cases.add(
                raw(
                        "space in the target",
                        "GET /he alth HTTP/1.1\r\nHost: localhost\r\n\r\n",
                        400));
        cases.add(
                raw(
                        "huge header",
                        "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                                + "a".repeat(64 * 1024)
                                + "\r\n\r\n",
                        431));
        cases.add(
                raw(
                        "long URL",
                        "GET /health?"
                                + "a".repeat(64 * 1024)
                                + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                        414));
        cases.add(
                raw(
                        "bad chunk size",
                        post
                                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
                        400));
        cases.add(
                raw(
                        "path with %0a",
                        "GET /v1/namespaces/x%0aSEVERE:%20forged/memories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                                + A
                                + "\r\n\r\n",
                        400));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocol")
    void protocolAbuseIsAnsweredWithProblemJson(Case c) {
        RawHttp.Answer answer = raw.exchange(c.body(), true);
        assertThat(answer.status())
                .as(c.name() + ": " + answer.head() + answer.body())
                .isIn(c.status(), 400);
        assertProblem(c, answer, Envelope.PROBLEM);
    }

    @Test
    void headOnHealthAnswers() {
        assertThat(raw.request("HEAD", "/health", null, null, null).status()).isEqualTo(200);
        assertThat(raw.request("HEAD", "/ark/hostile/health", null, null, null).status())
                .isEqualTo(200);
    }

    @Test
    void orlojKeyWithSlashIsStoredAndReadBack() {
        var put =
                cairn.call(
                        "POST",
                        "/orloj/hostile/put",
                        A,
                        "{\"key\":\"runbooks/deploy\",\"value\":\"v\"}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        var got = cairn.call("POST", "/orloj/hostile/get", A, "{\"key\":\"runbooks/deploy\"}");
        assertThat(got.json().path("found").asBoolean()).isTrue();
    }

    @Test
    void everyAcceptedDocumentIdIsFetchableAndDeletable() {
        for (String id : List.of("runbooks.deploy", "Über-Plan (v2)", "a:b@c+d", "日本語")) {
            var created =
                    cairn.call(
                            "POST",
                            NS + "/documents",
                            A,
                            "{\"id\":\""
                                    + id
                                    + "\",\"title\":\"t\",\"content\":\"c\",\"format\":\"text\"}");
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            String path =
                    NS
                            + "/documents/"
                            + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8)
                                    .replace("+", "%20");
            assertThat(cairn.call("GET", path, A, null).status()).as(id).isEqualTo(200);
            assertThat(cairn.call("DELETE", path, A, null).status()).as(id).isEqualTo(204);
        }
    }

    @Test
    void theTableHasAtLeast300Cases() {
        long count =
                malformedBodies().count()
                        + outOfRangeFields().count()
                        + identifiers().count()
                        + protocol().count();
        assertThat(count).isGreaterThanOrEqualTo(300);
    }

    // ---- helpers --------------------------------------------------------------------------

    static final String JSON = "application/json";

    RawHttp.Answer check(Case c) {
        String path = c.path().replace("{memory}", memoryId == null ? "m" : memoryId);
        RawHttp.Answer answer = raw.request(c.method(), path, A, c.contentType(), c.body());
        assertThat(answer.status()).as(c.name() + ": " + answer.body()).isEqualTo(c.status());
        assertProblem(c, answer, Envelope.of(path));
        return answer;
    }

    static void assertProblem(Case c, RawHttp.Answer answer, Envelope envelope) {
        String lower = answer.body().toLowerCase(Locale.ROOT);
        for (String leak : LEAKS) {
            assertThat(lower)
                    .as(c.name() + " leaks '" + leak + "': " + answer.body())
                    .doesNotContain(leak);
        }
        JsonNode body = parse(c, answer.body());
        switch (envelope) {
            case PROBLEM -> {
                assertThat(answer.contentType())
                        .as(c.name())
                        .startsWith("application/problem+json");
                assertThat(body.path("status").asInt()).as(c.name()).isEqualTo(answer.status());
                assertThat(body.path("detail").asText()).as(c.name()).isNotBlank();
            }
            case ARK -> {
                assertThat(answer.contentType()).as(c.name()).startsWith("application/json");
                assertThat(body.path("error").path("message").asText()).as(c.name()).isNotBlank();
            }
            case ORLOJ -> {
                assertThat(answer.contentType()).as(c.name()).startsWith("application/json");
                assertThat(body.path("error").asText()).as(c.name()).isNotBlank();
            }
        }
    }

    static String detail(Case c, RawHttp.Answer answer) {
        JsonNode body = parse(c, answer.body());
        return body.path("detail")
                .asText(body.path("error").path("message").asText(body.path("error").asText()));
    }

    static JsonNode parse(Case c, String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(c.name() + ": not JSON: " + body, e);
        }
    }

    static Case c(String name, Route r, String contentType, byte[] body, int status) {
        return new Case(name, r.method(), r.path(), contentType, body, status);
    }

    static Case post(String name, String path, String body, int status) {
        return new Case(name, "POST", path, JSON, utf8(body), status);
    }

    static Case get(String name, String path, int status) {
        return new Case(name, "GET", path, null, null, status);
    }

    static Case delete(String name, String path) {
        return new Case(name, "DELETE", path, null, null, 400);
    }

    static Case raw(String name, String request, int status) {
        return new Case(
                name, "RAW", "", null, request.getBytes(StandardCharsets.ISO_8859_1), status);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(String before, byte[] middle, String after) {
        return RawHttp.concat(RawHttp.concat(utf8(before), middle), utf8(after));
    }

    static String nested(int depth) {
        return "{\"a\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    }
}
