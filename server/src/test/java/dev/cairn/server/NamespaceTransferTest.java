package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.memory.TurnWindows;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.server.http.Json;
import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace exported from a server on the embedded store and imported into a server on
 * PostgreSQL: the same memories field for field (statuses, soft deletion, recall bookkeeping,
 * provenance), the same histories, the same recall answers, the same retrieve answers over its
 * runbooks (front matter entities and relations kept); vectors reused, not embedded again, turn
 * windows with them; a second import of the same file changes nothing; a truncated or malformed
 * file is refused with its line and leaves no trace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NamespaceTransferTest {

    static final String A = CairnCalls.ADMIN;
    static final String SRC = "/v1/namespaces/kitchen";
    static final String DST = "/v1/namespaces/kitchen-copy";
    static final String LINES = "application/x-ndjson";

    static final List<String> FACTS =
            List.of(
                    "The walk-in fridge is kept at 3 degrees and logged every morning.",
                    "Sourdough starter is fed at 7am with rye flour and water.",
                    "Priya prefers oat milk in her flat white.",
                    "The dishwasher's rinse aid is refilled on Fridays.",
                    "Knife sharpening service comes on the first Monday of the month.",
                    "Allergens are listed on the whiteboard by the pass.",
                    "The espresso grinder is set to 2.5 for the house blend.",
                    "Tomas cannot eat shellfish; he has a severe allergy.",
                    "Fish deliveries arrive before 6am on Tuesdays and Thursdays.",
                    "The pastry section closes at 3pm on Sundays.",
                    "Chili oil is made in batches of two litres on Wednesdays.",
                    "Priya's birthday is on the 14th of March.",
                    "The fire blanket hangs beside the fryer station.",
                    "Leftover bread becomes croutons the next day.",
                    "The grease trap is emptied by contractors every quarter.",
                    "Olive oil for finishing is the Sicilian one in the green tin.",
                    "Tomas runs the Saturday brunch shift.",
                    "Stock is reduced overnight on the back burner.",
                    "Hand wash sinks must have paper towels at all times.",
                    "The tasting menu changes with the first frost.");

    static final List<String> QUERIES =
            List.of(
                    "what milk does Priya like",
                    "when do fish deliveries come",
                    "allergy shellfish",
                    "grinder setting espresso",
                    "fridge temperature",
                    "sourdough feeding",
                    "what happens to old bread",
                    "who runs brunch",
                    "fire safety near the fryer",
                    "when does pastry close");

    /** Runbooks of the kitchen, with front matter that declares entities and relations. */
    static final List<String[]> RUNBOOKS =
            List.of(
                    new String[] {
                        "fridge-failure",
                        "Walk-in fridge failure",
                        "---\nid: fridge-failure\nentities:\n  - name: walk-in fridge\n    kind: service\ndepends_on: [compressor]\n---\n"
                                + "# Walk-in fridge failure\n\nIf the walk-in fridge reads above 5 degrees for two checks,"
                                + " move dairy and fish to the reach-in units, call the refrigeration contractor and log"
                                + " the temperature every 30 minutes.\n\n## After the repair\n\nDiscard anything held above"
                                + " 8 degrees for more than two hours."
                    },
                    new String[] {
                        "fryer-fire",
                        "Fryer fire",
                        "# Fryer fire\n\nTurn off the gas at the wall valve, smother the fryer with the fire"
                                + " blanket beside the station, never use water, and evacuate the line if the flames"
                                + " reach the hood."
                    },
                    new String[] {
                        "allergen-order",
                        "Allergen orders",
                        "# Allergen orders\n\nAn order flagged for shellfish or nut allergy is plated on the"
                                + " purple boards with freshly washed tongs, and the chef checks it at the pass before"
                                + " it leaves."
                    });

    static final List<String> DOCUMENT_QUERIES =
            List.of(
                    "fridge temperature too high what to do",
                    "fire on the fryer",
                    "how to plate an allergy order",
                    "discard food after repair");

    ServerFixture source;
    ServerFixture target;
    PostgresTestDatabase database;
    String exported;
    final List<String> ids = new ArrayList<>();
    final List<String> proposals = new ArrayList<>();

    /**
     * Records other than memories and documents in the file: relation, proposals, document
     * judgments, retrieve's adaptation, policy, memory judgments, recall's adaptation.
     */
    static final int OTHERS = 1 + 2 + 3 + 1 + 1 + 4 + 1;

    @BeforeAll
    void start(@TempDir Path sourceDir, @TempDir Path targetDir) {
        source = new ServerFixture(sourceDir);
        database = PostgresTestDatabase.create();
        target =
                new ServerFixture(
                        ServerSettings.defaults(targetDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withDbUrl(database.jdbcUrl()));
        assertThat(
                        source.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"kitchen\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
        for (int i = 0; i < FACTS.size(); i++) {
            ObjectNode body =
                    Json.MAPPER
                            .createObjectNode()
                            .put("type", i % 3 == 0 ? "preference" : "fact")
                            .put("content", FACTS.get(i))
                            .put("userId", i % 2 == 0 ? "priya" : "tomas")
                            .put("importance", 0.3 + (i % 5) / 10.0);
            body.putArray("tags").add("kitchen").add("shift-" + (i % 4));
            var created = source.call("POST", SRC + "/memories", A, body.toString());
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            ids.add(created.json().path("id").asText());
        }
        // history and every status: invalidated, disabled then enabled, disabled, deleted
        assertThat(
                        post(
                                source,
                                SRC + "/memories/" + ids.get(1) + "/invalidate",
                                "{\"reason\":\"moved\"}"))
                .isEqualTo(200);
        assertThat(
                        post(
                                source,
                                SRC + "/memories/" + ids.get(2) + "/disable",
                                "{\"reason\":\"audit\"}"))
                .isEqualTo(200);
        assertThat(
                        post(
                                source,
                                SRC + "/memories/" + ids.get(2) + "/enable",
                                "{\"reason\":\"done\"}"))
                .isEqualTo(200);
        assertThat(
                        post(
                                source,
                                SRC + "/memories/" + ids.get(3) + "/disable",
                                "{\"reason\":\"stale\"}"))
                .isEqualTo(200);
        assertThat(source.call("DELETE", SRC + "/memories/" + ids.get(4), A, null).status())
                .isEqualTo(204);
        for (String[] runbook : RUNBOOKS) {
            ObjectNode body =
                    Json.MAPPER
                            .createObjectNode()
                            .put("id", runbook[0])
                            .put("title", runbook[1])
                            .put("content", runbook[2]);
            body.putArray("tags").add("runbook");
            var ingested = source.call("POST", SRC + "/documents", A, body.toString());
            assertThat(ingested.status()).as(ingested.body()).isEqualTo(201);
        }
        // what else a namespace holds: a relation, proposals, judgments, an adaptation, a policy
        var related =
                source.call(
                        "POST",
                        SRC + "/relations",
                        A,
                        "{\"from\":\"walk-in fridge\",\"to\":\"document:fryer-fire\","
                                + "\"type\":\"related_to\",\"confidence\":0.6}");
        assertThat(related.status()).as(related.body()).isEqualTo(201);
        for (String title : List.of("Label the oat milk", "Move the fire blanket")) {
            var proposed =
                    source.call(
                            "POST",
                            SRC + "/proposals",
                            A,
                            "{\"type\":\"memory\",\"title\":\""
                                    + title
                                    + "\",\"description\":\"seen on shift\",\"content\":\""
                                    + title
                                    + ".\"}");
            assertThat(proposed.status()).as(proposed.body()).isEqualTo(201);
            proposals.add(proposed.json().path("id").asText());
        }
        assertThat(
                        post(
                                source,
                                SRC + "/proposals/" + proposals.get(0) + "/review",
                                "{\"status\":\"accepted\",\"reviewNote\":\"yes\"}"))
                .isEqualTo(204);
        for (String[] runbook : RUNBOOKS) {
            var judged =
                    source.call(
                            "POST",
                            SRC + "/feedback",
                            A,
                            "{\"query\":\""
                                    + runbook[1]
                                    + " steps\",\"relevant\":[{\"documentId\":\""
                                    + runbook[0]
                                    + "\",\"grade\":2}]}");
            assertThat(judged.status()).as(judged.body()).isEqualTo(201);
        }
        var trained = source.call("POST", SRC + "/adaptation/train", A, null);
        assertThat(trained.status()).as(trained.body()).isEqualTo(201);
        for (int i = 5; i < 9; i++) {
            var judged =
                    source.call(
                            "POST",
                            SRC + "/feedback",
                            A,
                            "{\"query\":\"what about "
                                    + FACTS.get(i).split(" ")[1]
                                    + " "
                                    + i
                                    + "\",\"relevant\":[{\"memoryId\":\""
                                    + ids.get(i)
                                    + "\"}]}");
            assertThat(judged.status()).as(judged.body()).isEqualTo(201);
        }
        var trainedRecall =
                source.call("POST", SRC + "/adaptation/train", A, "{\"subject\":\"memories\"}");
        assertThat(trainedRecall.status()).as(trainedRecall.body()).isEqualTo(201);
        var policy =
                source.call(
                        "PUT",
                        SRC + "/policies/short",
                        A,
                        "{\"rules\":[{\"kind\":\"max-length\",\"max-chars\":400}]}");
        assertThat(policy.status()).as(policy.body()).isBetween(200, 201);
        // recall bookkeeping
        int recalled = 0;
        for (String q : QUERIES.subList(0, 3)) {
            recalled += recall(source, SRC, q).size();
        }
        awaitRecallBookkeeping(recalled);
        var export = source.call("GET", SRC + "/export", A, null);
        assertThat(export.status()).as(export.body()).isEqualTo(200);
        assertThat(export.contentType()).startsWith(LINES);
        exported = export.body();
    }

    @AfterAll
    void stop() {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
        if (database != null) {
            database.close();
        }
    }

    /**
     * Recalls are recorded after they answer: waits (at most 10 s) until the source's memories
     * count {@code recalls} in all, so the export sees them.
     */
    void awaitRecallBookkeeping(int recalls) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int counted = -1;
        while (System.nanoTime() < deadline) {
            JsonNode page =
                    source.call("GET", SRC + "/memories?limit=100&includeDisabled=true", A, null)
                            .json();
            counted = 0;
            for (JsonNode m : page.path("items")) {
                counted += m.path("recalledCount").asInt();
            }
            if (counted == recalls) {
                return;
            }
            Thread.onSpinWait();
        }
        assertThat(counted).as("recalls recorded").isEqualTo(recalls);
    }

    static int post(ServerFixture server, String path, String body) {
        return server.call("POST", path, A, body).status();
    }

    static List<String> recall(ServerFixture server, String ns, String query) {
        var answer =
                server.call(
                        "POST",
                        ns + "/recall",
                        A,
                        "{\"query\":\"" + query + "\",\"limit\":10,\"scope\":\"namespace\"}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<String> found = new ArrayList<>();
        answer.json()
                .path("memories")
                .forEach(m -> found.add(m.path("memory").path("id").asText()));
        return found;
    }

    static void create(ServerFixture server, String name) {
        var created =
                server.call(
                        "POST",
                        "/v1/namespaces",
                        A,
                        "{\"name\":\"" + name + "\",\"recallScope\":\"namespace\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    static List<String> retrieve(ServerFixture server, String ns, String query) {
        var answer =
                server.call(
                        "POST", ns + "/retrieve", A, "{\"query\":\"" + query + "\",\"topK\":10}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<String> found = new ArrayList<>();
        answer.json().path("hits").forEach(h -> found.add(h.path("chunkId").asText()));
        return found;
    }

    @Test
    void theImportedNamespaceHoldsTheSameMemoriesHistoriesAndRecallAnswers() {
        create(target, "kitchen-copy");
        var imported = target.call("POST", DST + "/import", A, exported, LINES);
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        JsonNode report = imported.json();
        assertThat(report.path("records").path("memory").asLong()).isEqualTo(FACTS.size());
        assertThat(report.path("written").asLong())
                .isEqualTo(FACTS.size() + RUNBOOKS.size() + OTHERS);
        assertThat(report.path("skipped").asLong()).isZero();
        // every vector came with the file: each memory's (the deleted one keeps its own too) and
        // each chunk's
        assertThat(report.path("vectorsReused").asLong())
                .isGreaterThan(FACTS.size() + RUNBOOKS.size() - 1);
        assertThat(report.path("embedded").asLong()).isZero();
        assertThat(report.path("historyAppended").asLong()).isGreaterThanOrEqualTo(5);

        for (String id : ids) {
            if (id.equals(ids.get(4))) {
                // deleted: GET answers 404 on both; the list with deleted ones shows it
                assertThat(target.call("GET", DST + "/memories/" + id, A, null).status())
                        .isEqualTo(404);
                continue;
            }
            JsonNode a = source.call("GET", SRC + "/memories/" + id, A, null).json();
            JsonNode b = target.call("GET", DST + "/memories/" + id, A, null).json();
            assertThat(b.path("id").asText()).isEqualTo(id);
            for (String field :
                    List.of(
                            "content",
                            "type",
                            "status",
                            "tags",
                            "userId",
                            "importance",
                            "confidence",
                            "createdAt",
                            "updatedAt",
                            "expiresAt",
                            "disabled",
                            "source",
                            "recalledCount",
                            "lastRecalledAt",
                            "embeddingModel",
                            "transitions")) {
                assertThat(b.path(field)).as("%s of %s", field, id).isEqualTo(a.path(field));
            }
        }
        assertThat(report.path("records").path("document").asLong()).isEqualTo(RUNBOOKS.size());
        for (String q : DOCUMENT_QUERIES) {
            List<String> expected = retrieve(source, SRC, q);
            assertThat(expected).as(q).isNotEmpty();
            assertThat(retrieve(target, DST, q)).as(q).isEqualTo(expected);
        }
        JsonNode graph =
                target.call("GET", DST + "/documents/fridge-failure/graph", A, null).json();
        assertThat(graph.toString()).contains("walk-in fridge").contains("compressor");
        for (String q : QUERIES) {
            List<String> expected = recall(source, SRC, q);
            assertThat(expected).as(q).isNotEmpty();
            assertThat(recall(target, DST, q)).as(q).isEqualTo(expected);
        }
        // the relation posted to the source is an edge of the copy's graph
        assertThat(
                        target.call("GET", DST + "/entities/walk-in%20fridge", A, null)
                                .json()
                                .path("relations")
                                .toString())
                .contains("fryer-fire")
                .contains("related_to");
        for (String id : proposals) {
            assertThat(target.call("GET", DST + "/proposals/" + id, A, null).json())
                    .isEqualTo(source.call("GET", SRC + "/proposals/" + id, A, null).json());
        }
        assertThat(target.call("GET", DST + "/feedback?limit=10", A, null).json().path("items"))
                .isEqualTo(
                        source.call("GET", SRC + "/feedback?limit=10", A, null)
                                .json()
                                .path("items"));
        JsonNode documentAdaptations = source.call("GET", SRC + "/adaptation", A, null).json();
        // retrieve's version learned a fusion (one weight per feature), and it travels with it
        assertThat(documentAdaptations.path("versions").path(0).path("fusion").size())
                .isEqualTo(LearnedFusion.FEATURES.size());
        assertThat(target.call("GET", DST + "/adaptation", A, null).json())
                .isEqualTo(documentAdaptations);
        JsonNode recallAdaptations =
                source.call("GET", SRC + "/adaptation?subject=memories", A, null).json();
        assertThat(recallAdaptations.path("versions")).hasSize(1);
        assertThat(recallAdaptations.path("versions").path(0).path("fusion").isEmpty()).isTrue();
        assertThat(target.call("GET", DST + "/adaptation?subject=memories", A, null).json())
                .isEqualTo(recallAdaptations);
        assertThat(target.call("GET", DST + "/policies/short", A, null).json().path("rules"))
                .isEqualTo(
                        source.call("GET", SRC + "/policies/short", A, null).json().path("rules"));
    }

    /**
     * Fifty queries for both recall and retrieve: the facts themselves, the hand-written questions,
     * and each fact's last five words.
     */
    static List<String> fiftyQueries() {
        List<String> queries = new ArrayList<>(FACTS);
        queries.addAll(QUERIES);
        queries.addAll(DOCUMENT_QUERIES);
        for (String fact : FACTS.subList(0, 16)) {
            String[] words = fact.replaceAll("[^A-Za-z0-9 ]", "").split(" ");
            queries.add(
                    String.join(
                            " ",
                            java.util.Arrays.copyOfRange(words, words.length - 5, words.length)));
        }
        return queries.stream().map(q -> q.replaceAll("[\"']", "")).toList();
    }

    /** Last: its recalls on the source change the recall bookkeeping the first test compares. */
    @Test
    @Order(Integer.MAX_VALUE)
    void aCopyTakenBackFromPostgresToTheEmbeddedStoreAnswersFiftyQueriesAsTheOriginal() {
        create(target, "round-trip");
        var there = target.call("POST", "/v1/namespaces/round-trip/import", A, exported, LINES);
        assertThat(there.status()).as(there.body()).isEqualTo(200);
        var back = target.call("GET", "/v1/namespaces/round-trip/export", A, null);
        assertThat(back.status()).as(back.body()).isEqualTo(200);
        create(source, "returned");
        var home = source.call("POST", "/v1/namespaces/returned/import", A, back.body(), LINES);
        assertThat(home.status()).as(home.body()).isEqualTo(200);
        assertThat(home.json().path("embedded").asLong()).isZero();

        List<String> queries = fiftyQueries();
        assertThat(queries).hasSize(50);
        String returned = "/v1/namespaces/returned";
        String copy = "/v1/namespaces/round-trip";
        for (String q : queries) {
            List<String> recalled = recall(source, SRC, q);
            assertThat(recall(target, copy, q))
                    .as("recall on PostgreSQL: %s", q)
                    .isEqualTo(recalled);
            assertThat(recall(source, returned, q))
                    .as("recall back home: %s", q)
                    .isEqualTo(recalled);
            List<String> retrieved = retrieve(source, SRC, q);
            assertThat(retrieve(target, copy, q))
                    .as("retrieve on PostgreSQL: %s", q)
                    .isEqualTo(retrieved);
            assertThat(retrieve(source, returned, q))
                    .as("retrieve back home: %s", q)
                    .isEqualTo(retrieved);
        }
        for (String id : ids) {
            assertThat(
                            source.call("GET", returned + "/memories/" + id, A, null)
                                    .json()
                                    .path("transitions"))
                    .as("history of %s", id)
                    .isEqualTo(
                            source.call("GET", SRC + "/memories/" + id, A, null)
                                    .json()
                                    .path("transitions"));
        }
    }

    /**
     * Version 4 gives an adaptation its learned fusion; a version 3 file has none, and its
     * adaptation is imported without one (the default fusion then ranks under it).
     */
    @Test
    void anAdaptationOfAVersion3FileHasNoLearnedFusion() {
        assertThat(exported).startsWith("{\"format\":\"cairn-namespace-export\",\"version\":4,");
        assertThat(exported).contains("\"fusion\":[");
        importedAsOlder("older-adaptation", exported, 3, "fusion", "\\[[^\\]]*\\]");
        JsonNode versions =
                target.call("GET", "/v1/namespaces/older-adaptation/adaptation", A, null)
                        .json()
                        .path("versions");
        assertThat(versions).hasSize(1);
        assertThat(versions.path(0).path("fusion").isEmpty()).isTrue();
    }

    @Test
    void aSecondImportOfTheSameFileChangesNothing() {
        create(target, "twice");
        var first = importInto("twice", exported);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        var again = importInto("twice", exported);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("written").asLong()).isZero();
        assertThat(again.json().path("historyAppended").asLong()).isZero();
        assertThat(again.json().path("unchanged").asLong())
                .isEqualTo(FACTS.size() + RUNBOOKS.size() + OTHERS);
        var list =
                target.call(
                        "GET",
                        "/v1/namespaces/twice/memories?limit=100&includeDisabled=true&includeDeleted=true",
                        A,
                        null);
        assertThat(list.json().path("items").size()).isEqualTo(FACTS.size());
    }

    @Test
    void aTruncatedOrMalformedFileIsRefusedWithItsLineAndWritesNothing() {
        create(target, "refused");
        String[] lines = exported.split("\n");
        String truncated =
                String.join("\n", java.util.Arrays.copyOf(lines, lines.length - 1)) + "\n";
        var cut = importInto("refused", truncated);
        assertThat(cut.status()).isEqualTo(400);
        assertThat(cut.json().path("detail").asText())
                .contains("truncated")
                .contains("line " + (lines.length - 1));

        String[] broken = lines.clone();
        broken[3] = broken[3].replace("\"content\"", "\"contnet\"");
        var malformed = importInto("refused", String.join("\n", broken) + "\n");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("detail").asText())
                .startsWith("line 4:")
                .contains("contnet");

        broken = lines.clone();
        broken[5] = broken[5].substring(0, broken[5].length() / 2);
        var half = importInto("refused", String.join("\n", broken) + "\n");
        assertThat(half.status()).isEqualTo(400);
        assertThat(half.json().path("detail").asText()).startsWith("line 6:");

        // one adaptation line twice: the same version of the same subject
        List<String> doubled = new ArrayList<>(List.of(lines));
        int adaptationLine =
                doubled.indexOf(
                        doubled.stream()
                                .filter(l -> l.contains("\"type\":\"adaptation\""))
                                .filter(l -> l.contains("\"subject\":\"memories\""))
                                .findFirst()
                                .orElseThrow());
        doubled.add(adaptationLine + 1, doubled.get(adaptationLine));
        var twice = importInto("refused", String.join("\n", doubled) + "\n");
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.json().path("detail").asText())
                .startsWith("line " + (adaptationLine + 2) + ":")
                .containsPattern("adaptation 'memories \\d+' appears twice");

        var left =
                target.call(
                        "GET",
                        "/v1/namespaces/refused/memories?includeDisabled=true&includeDeleted=true",
                        A,
                        null);
        assertThat(left.json().path("items").size()).isZero();
    }

    private CairnCalls.Response importInto(String namespace, String lines) {
        return target.call("POST", "/v1/namespaces/" + namespace + "/import", A, lines, LINES);
    }

    /**
     * Imports {@code file} into a new namespace as a file of an earlier {@code version} wrote it:
     * without the field that version did not have ({@code field}, whose values match {@code
     * value}).
     */
    private void importedAsOlder(
            String namespace, String file, int version, String field, String value) {
        String older =
                file.replace("\"version\":4,", "\"version\":" + version + ",")
                        .replaceAll(",\"" + field + "\":" + value, "");
        assertThat(older).doesNotContain("\"" + field + "\"");
        create(target, namespace);
        var imported = importInto(namespace, older);
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    }

    /**
     * A long conversation turn's windows (issue 39) go with it: the copy holds the same window
     * vectors and recalls the middle of the turn as the original does, before any maintenance; a
     * file that does not carry them (as version 2 wrote it) is read, and its copy finds the turn by
     * its own vector only until maintenance computes them.
     */
    @Test
    void aLongTurnsWindowsTravelWithItAndTheCopyRecallsItsMiddleAtOnce()
            throws JsonProcessingException {
        String line =
                "so much news, the garden is finally planted and the tomatoes look great, my"
                        + " brother sold his old van to a neighbour, and my cousin is moving to"
                        + " Lisbon in spring for a job at the aquarium, which nobody saw coming,"
                        + " and meanwhile the cat has decided the laundry basket is hers now and"
                        + " the neighbours are repainting their fence a very loud shade of green";
        create(source, "chat");
        String shortTurn = remember(source, "chat", "mel", "Mel: any news?");
        String longTurn = remember(source, "chat", "caro", "Caro: " + line);
        String file = source.call("GET", "/v1/namespaces/chat/export", A, null).body();
        assertThat(file).startsWith("{\"format\":\"cairn-namespace-export\",\"version\":4,");
        Map<String, String> windows = windowsById(file);
        int dimensions = 384;
        assertThat(Base64.getDecoder().decode(windows.get(longTurn)))
                .hasSize(TurnWindows.of(line).size() * dimensions * Float.BYTES);
        assertThat(windows.get(shortTurn)).isEmpty(); // computed: none

        create(target, "chat-copy");
        var imported = importInto("chat-copy", file);
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        assertThat(imported.json().path("embedded").asLong()).isZero();
        assertThat(
                        windowsById(
                                target.call("GET", "/v1/namespaces/chat-copy/export", A, null)
                                        .body()))
                .isEqualTo(windows);
        // before a recall changes their bookkeeping: stored exactly so, windows too
        var again = importInto("chat-copy", file);
        assertThat(again.json().path("unchanged").asLong()).as(again.body()).isEqualTo(2);
        String question = "Who is moving to Lisbon for a job at the aquarium?";
        double original = relevance(source, "chat", question, longTurn);
        assertThat(relevance(target, "chat-copy", question, longTurn))
                .isCloseTo(original, within(1e-6));

        // version 2 had no windows: the importer leaves them to maintenance
        importedAsOlder("chat-older", file, 2, "windows", "(\"[^\"]*\"|null)");
        assertThat(relevance(target, "chat-older", question, longTurn)).isLessThan(original);

        // windows that are not whole vectors, or come without a vector, refuse the file
        String[] lines = file.split("\n");
        int at = indexOfLine(lines, longTurn);
        String[] cut = lines.clone();
        cut[at] = cut[at].replace(windows.get(longTurn), windows.get(longTurn).substring(16));
        var wrong = importInto("chat-older", String.join("\n", cut) + "\n");
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.json().path("detail").asText())
                .startsWith("line " + (at + 1) + ":")
                .contains("illegal windows of memory '" + longTurn + "'")
                .contains("not a whole number of 384-dimensional vectors");
        String[] bare = lines.clone();
        bare[at] = bare[at].replaceAll("\"vector\":\"[^\"]*\"", "\"vector\":\"\"");
        var alone = importInto("chat-older", String.join("\n", bare) + "\n");
        assertThat(alone.status()).isEqualTo(400);
        assertThat(alone.json().path("detail").asText()).contains("windows with no vector");
    }

    private static String remember(ServerFixture server, String ns, String user, String turn) {
        ObjectNode body =
                Json.MAPPER
                        .createObjectNode()
                        .put("type", "fact")
                        .put("content", turn)
                        .put("userId", user)
                        .put("sessionName", "s1")
                        .put("source", "conversation");
        var created = server.call("POST", "/v1/namespaces/" + ns + "/memories", A, body.toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("id").asText();
    }

    /** Each memory line's {@code windows}, by memory id (JSON null as null). */
    private static Map<String, String> windowsById(String file) throws JsonProcessingException {
        Map<String, String> out = new TreeMap<>();
        for (String line : file.split("\n")) {
            JsonNode record = Json.MAPPER.readTree(line);
            if (record.path("type").asText().equals("memory")) {
                JsonNode w = record.get("windows");
                out.put(record.path("id").asText(), w == null || w.isNull() ? null : w.asText());
            }
        }
        return out;
    }

    private static int indexOfLine(String[] lines, String memoryId) {
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("\"id\":\"" + memoryId + "\"")) {
                return i;
            }
        }
        throw new AssertionError(memoryId + " is in no line");
    }

    /** The relevance a dense recall gives {@code memoryId} for {@code query}. */
    private static double relevance(
            ServerFixture server, String ns, String query, String memoryId) {
        var answer =
                server.call(
                        "POST",
                        "/v1/namespaces/" + ns + "/recall",
                        A,
                        "{\"query\":\""
                                + query
                                + "\",\"mode\":\"dense\",\"threshold\":-1,"
                                + "\"scope\":\"namespace\"}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        for (JsonNode m : answer.json().path("memories")) {
            if (m.path("memory").path("id").asText().equals(memoryId)) {
                return m.path("components").path("relevance").asDouble();
            }
        }
        throw new AssertionError(memoryId + " not recalled: " + answer.body());
    }

    @Test
    void wrongMediaTypeUnknownNamespaceAndNonAdminAreRefused() {
        assertThat(target.call("POST", DST + "/import", A, exported, "application/json").status())
                .isEqualTo(415);
        assertThat(source.call("GET", "/v1/namespaces/nowhere/export", A, null).status())
                .isEqualTo(404);
        assertThat(
                        target.call("POST", "/v1/namespaces/nowhere/import", A, exported, LINES)
                                .status())
                .isEqualTo(404);
        assertThat(source.call("GET", SRC + "/export", null, null).status()).isEqualTo(401);
    }
}
