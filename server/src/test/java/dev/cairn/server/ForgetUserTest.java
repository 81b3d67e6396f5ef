package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import dev.cairn.store.ForgetRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting a user through the real server on a random port (issue 44): one user's memories, their
 * history and recall bookkeeping, feedback on them, the ARK conversation they came from, the trace
 * of a retrieve asked for them and an answer judged against it, each carrying a unique marker word,
 * are gone after {@code DELETE /v1/namespaces/{ns}/users/{id}} from the API, from the derived
 * indexes, and from every byte of the data dir (the SQLite file, its WAL, the Lucene directories);
 * another user's data is untouched; the answer counts what went and the audit record keeps no
 * content. The PostgreSQL subclass also searches a {@code pg_dump}.
 */
class ForgetUserTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/forget";

    @TempDir Path dataDir;
    ServerFixture cairn;

    /** The server settings; the PostgreSQL subclass points them at a database. */
    ServerSettings settings(Path dataDir) {
        return ServerSettings.defaults(dataDir).withPort(0).withAdminToken(A);
    }

    /** Every place outside the data dir that holds the store's rows (PostgreSQL: a dump). */
    List<byte[]> storeOutsideDataDir() {
        return List.of();
    }

    @BeforeEach
    void start() {
        cairn = new ServerFixture(settings(dataDir));
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"forget\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
    }

    @AfterEach
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    /**
     * A word no text holds by chance: lower-case letters only, so it is one BM25 term, ending in
     * "qx", which no stemming rule shortens, and never one letter three times in a row, which the
     * memories' indexed copy shortens as a stretched word ("sooo"; {@code InformalText}), so the
     * index holds it as it is. (Seed 7048410067493 drew "zqiysuurgdddwqqx", indexed as
     * "zqiysuurgdwqqx": the kept user's term was then in no segment.)
     */
    static String marker(Random random) {
        StringBuilder b = new StringBuilder("zq");
        while (b.length() < 14) {
            char c = (char) ('a' + random.nextInt(26));
            int n = b.length();
            boolean third = b.charAt(n - 1) == c && b.charAt(n - 2) == c;
            boolean beforeQx = n == 13 && c == 'q' && b.charAt(n - 1) == 'q'; // "qq" + "qx"
            if (!third && !beforeQx) {
                b.append(c);
            }
        }
        return b.append("qx").toString();
    }

    @Test
    void forgetsEveryByteOfOneUserAndNothingOfAnother() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String gone = marker(random);
        String kept = marker(random);
        String alice = "alice-" + random.nextInt(1_000_000);
        String bob = "bob-" + random.nextInt(1_000_000);

        String aliceConversation = conversationWith(gone, "my locker code is " + gone);
        String bobConversation = conversationWith(kept, "my locker code is " + kept);
        String first = remember(alice, aliceConversation, "Alice keeps her bike in locker " + gone);
        String second =
                remember(alice, aliceConversation, "Alice said the word " + gone + " twice");
        String bobs = remember(bob, bobConversation, "Bob keeps his bike in locker " + kept);
        assertThat(cairn.call("POST", NS + "/memories/" + second + "/invalidate", A, "{}").status())
                .isEqualTo(200);
        long history = history(first) + history(second);
        JsonNode recalled =
                cairn.call(
                                "POST",
                                NS + "/recall",
                                A,
                                "{\"query\":\"where is the bike "
                                        + gone
                                        + "\",\"userId\":\""
                                        + alice
                                        + "\"}")
                        .json();
        assertThat(recalled.path("memories").toString()).as("seed %d", seed).contains(first);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/feedback",
                                        A,
                                        "{\"query\":\"bike "
                                                + gone
                                                + "\",\"relevant\":[{\"memoryId\":\""
                                                + first
                                                + "\"}]}")
                                .status())
                .isEqualTo(201);
        String trace = retrieve("how do I open locker " + gone, alice);
        retrieve("how do I open locker " + kept, bob);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/judge",
                                        A,
                                        Json.MAPPER
                                                .createObjectNode()
                                                .put("query", "how do I open locker " + gone)
                                                .put("answer", "Use the code " + gone + ".")
                                                .put("traceId", trace)
                                                .toString())
                                .status())
                .isEqualTo(200);
        // transcript search catches up with the change log within a round
        Waits.until(() -> !transcriptHits(gone).isEmpty(), java.time.Duration.ofSeconds(10));
        assertThat(transcriptHits(gone)).as(transcriptSearch(gone)).isNotEmpty();
        // before the forget the checks below must see the marker where it is: in the memory
        // index's committed terms (Lucene may compress them, so bytes alone cannot tell), and in
        // the bytes of the SQLite file or the dump
        Waits.until(
                () -> !luceneSegmentsWithTerm(gone).isEmpty(), java.time.Duration.ofSeconds(10));
        assertThat(luceneSegmentsWithTerm(gone)).as("in the memory index").isNotEmpty();
        assertThat(
                        filesHolding(gone).size()
                                + storeOutsideDataDir().stream()
                                        .filter(
                                                d ->
                                                        StoredBytes.indexOf(
                                                                        d,
                                                                        gone.getBytes(
                                                                                StandardCharsets
                                                                                        .UTF_8))
                                                                >= 0)
                                        .count())
                .as("in the store's bytes")
                .isPositive();

        JsonNode answer = cairn.call("DELETE", NS + "/users/" + alice, A, null).json();

        assertThat(answer.path("userId").asText()).isEqualTo(alice);
        assertThat(answer.path("namespace").asText()).isEqualTo("forget");
        assertThat(answer.path("requestedBy").asText()).isNotBlank();
        JsonNode removed = answer.path("removed");
        assertThat(removed.path("memories").asLong()).isEqualTo(2);
        assertThat(removed.path("memoryTransitions").asLong()).isEqualTo(history);
        assertThat(removed.path("feedback").asLong()).isEqualTo(1);
        assertThat(removed.path("conversations").asLong()).isEqualTo(1);
        assertThat(removed.path("messages").asLong()).isEqualTo(2);
        assertThat(removed.path("traces").asLong()).isEqualTo(1);
        assertThat(removed.path("judgedAnswers").asLong()).isEqualTo(1);
        assertThat(removed.path("judgements").asLong()).isEqualTo(1);
        assertThat(answer.path("total").asLong())
                .isEqualTo(2 + history + 1 + 1 + 2 + 3 + removed.path("proposals").asLong());
        assertThat(cairn.call("GET", NS + "/traces/" + trace, A, null).status()).isEqualTo(404);

        // gone from the API and the derived indexes
        assertThat(cairn.call("GET", NS + "/memories/" + first, A, null).status()).isEqualTo(404);
        assertThat(
                        cairn.call("GET", NS + "/memories?userId=" + alice, A, null)
                                .json()
                                .path("total")
                                .asLong())
                .isZero();
        assertThat(
                        cairn.call("GET", "/ark/forget/conversations/" + aliceConversation, A, null)
                                .status())
                .isEqualTo(404);
        assertThat(transcriptHits(gone)).isEmpty();
        assertThat(recallText(gone, alice)).doesNotContain(gone);

        // the other user is untouched
        assertThat(cairn.call("GET", NS + "/memories/" + bobs, A, null).status()).isEqualTo(200);
        assertThat(recallText("where is the bike " + kept, bob)).contains(kept);
        assertThat(transcriptHits(kept)).isNotEmpty();
        assertThat(
                        cairn.call("GET", "/ark/forget/conversations/" + bobConversation, A, null)
                                .status())
                .isEqualTo(200);

        // not one byte on disk: SQLite file and WAL, Lucene directories, everything in the data dir
        assertThat(luceneSegmentsWithTerm(gone)).as("seed %d", seed).isEmpty();
        assertThat(luceneSegmentsWithTerm(kept)).as("seed %d", seed).isNotEmpty();
        assertThat(filesHolding(gone)).as("seed %d; %s", seed, luceneFiles()).isEmpty();
        for (byte[] dump : storeOutsideDataDir()) {
            assertThat(StoredBytes.indexOf(dump, gone.getBytes(StandardCharsets.UTF_8)))
                    .isEqualTo(-1);
            assertThat(StoredBytes.indexOf(dump, kept.getBytes(StandardCharsets.UTF_8)))
                    .isNotEqualTo(-1);
        }

        // the audit record: who, when, how much, and no content
        List<ForgetRecord> audit = cairn.server.store().forgetRecords("forget");
        assertThat(audit).hasSize(1);
        assertThat(audit.getFirst().userId()).isEqualTo(alice);
        assertThat(audit.getFirst().id()).isEqualTo(answer.path("id").asText());
        assertThat(audit.getFirst().total()).isEqualTo(answer.path("total").asLong());
        assertThat(audit.getFirst().toString()).doesNotContain(gone);
    }

    @Test
    void forgettingAnUnknownUserRemovesNothingAndIsStillAudited() {
        JsonNode answer = cairn.call("DELETE", NS + "/users/nobody", A, null).json();
        assertThat(answer.path("total").asLong()).isZero();
        assertThat(cairn.server.store().forgetRecords("forget")).hasSize(1);
    }

    @Test
    void badRequestsAreProblems() {
        CairnCalls.Response unknown =
                cairn.call("DELETE", "/v1/namespaces/no-such/users/alice", A, null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.contentType()).startsWith("application/problem+json");
        for (String path : List.of(NS + "/users/%20", NS + "/users/", NS + "/users")) {
            CairnCalls.Response empty = cairn.call("DELETE", path, A, null);
            assertThat(empty.status()).as(path).isEqualTo(400);
            assertThat(empty.contentType()).as(path).startsWith("application/problem+json");
            assertThat(empty.json().path("detail").asText()).as(path).contains("userId");
        }
        assertThat(cairn.call("DELETE", NS + "/users/alice", null, null).status()).isEqualTo(401);
        assertThat(cairn.server.store().forgetRecords("forget")).isEmpty();
    }

    // ---- helpers -----------------------------------------------------------------------

    private String conversationWith(String marker, String text) {
        String id =
                cairn.call("POST", "/ark/forget/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        String body =
                "{\"conversation_id\":\""
                        + id
                        + "\",\"query_id\":\"q-"
                        + marker
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                        + text
                        + "\"},{\"role\":\"assistant\",\"content\":\"noted: "
                        + marker
                        + "\"}]}";
        assertThat(cairn.call("POST", "/ark/forget/messages", A, body).status()).isEqualTo(200);
        return id;
    }

    /** One retrieve asked for {@code user}: its trace id. */
    private String retrieve(String query, String user) {
        CairnCalls.Response r =
                cairn.call(
                        "POST",
                        NS + "/retrieve",
                        A,
                        Json.MAPPER
                                .createObjectNode()
                                .put("query", query)
                                .put("userId", user)
                                .toString());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("traceId").asText();
    }

    private String remember(String user, String conversation, String content) {
        CairnCalls.Response r =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\""
                                + content
                                + "\",\"userId\":\""
                                + user
                                + "\",\"sessionName\":\""
                                + conversation
                                + "\",\"source\":{\"kind\":\"conversation\",\"reference\":\""
                                + conversation
                                + "\"}}");
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().path("id").asText();
    }

    private long history(String memoryId) {
        return cairn.call("GET", NS + "/memories/" + memoryId, A, null)
                .json()
                .path("transitions")
                .size();
    }

    private String transcriptSearch(String query) {
        return cairn.call(
                        "POST",
                        NS + "/transcripts/search",
                        A,
                        "{\"query\":\"" + query + "\",\"limit\":10}")
                .body();
    }

    private List<String> transcriptHits(String query) {
        JsonNode items;
        try {
            items = Json.MAPPER.readTree(transcriptSearch(query)).path("items");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> snippets = new ArrayList<>();
        items.forEach(
                hit -> {
                    if (hit.path("snippet").asText().contains(query)) {
                        snippets.add(hit.path("snippet").asText());
                    }
                });
        return snippets;
    }

    private String recallText(String query, String user) {
        return cairn.call(
                        "POST",
                        NS + "/recall",
                        A,
                        Json.MAPPER
                                .createObjectNode()
                                .put("query", query)
                                .put("userId", user)
                                .toString())
                .body();
    }

    /** The files under the data dir that hold {@code marker}'s UTF-8 bytes anywhere. */
    private List<Path> filesHolding(String marker) {
        return StoredBytes.filesHolding(dataDir, marker);
    }

    /** Segments of the committed memory index whose terms dictionary still has {@code term}. */
    private List<String> luceneSegmentsWithTerm(String term) {
        return StoredBytes.segmentsWithTerm(
                dataDir.resolve("lucene").resolve("memories").resolve("forget"), term);
    }

    /** The memory index's files and those its latest commit names, for a failure's message. */
    private String luceneFiles() {
        Path dir = dataDir.resolve("lucene").resolve("memories").resolve("forget");
        try (FSDirectory d = FSDirectory.open(dir)) {
            return "files "
                    + List.of(d.listAll())
                    + ", committed "
                    + org.apache.lucene.index.SegmentInfos.readLatestCommit(d).files(true);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
