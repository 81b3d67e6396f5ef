package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entities, relations and the graph part of the retrieve answer over HTTP. */
@RoutingTest
class GraphEndpointsTest {

    static final Path RUNBOOKS = Path.of("..", "graph", "src", "test", "resources", "runbooks");
    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/shop";

    @TempDir static Path dataDir;
    static RoutedCairn cairn;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        Duration patient = Duration.ofSeconds(30);
        cairn =
                RoutedCairn.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withRetrieval(
                                        dev.cairn.retrieval.RetrievalConfig.defaults()
                                                .withTimeouts(patient, patient, patient)),
                        routing);
    }

    @BeforeAll
    static void start(DirectClient client) throws IOException {
        cairn.connect(client);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"shop\"}");
        for (String id :
                List.of(
                        "ledger-db-promote-replica",
                        "ledger-db-backup-restore",
                        "search-reindex",
                        "search-reindex-2019")) {
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.put("content", Files.readString(RUNBOOKS.resolve(id + ".md")));
            body.put("format", "markdown");
            var created = cairn.call("POST", NS + "/documents", A, body.toString());
            assertThat(created.status()).as(created.body()).isEqualTo(201);
        }
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    @Test
    void entitiesAreFoundByNameOrAliasInTheListShape() {
        var answer = cairn.call("GET", NS + "/entities?q=postgres&limit=5", A, null);

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode first = answer.json().at("/items/0");
        assertThat(first.path("id").asText()).isEqualTo("ledger-db");
        assertThat(first.path("kind").asText()).isEqualTo("database");
        assertThat(texts(first.path("aliases"))).contains("PG", "primary database");
        assertThat(first.path("degree").asInt()).isPositive();
        assertThat(answer.json().path("total").asInt()).isGreaterThanOrEqualTo(1);

        var all = cairn.call("GET", NS + "/entities?limit=2", A, null).json();
        assertThat(all.path("items")).hasSize(2);
        assertThat(all.path("total").asInt()).isGreaterThan(2);
    }

    @Test
    void entityIsShownWithItsRelationsByIdOrAlias() {
        var byId = cairn.call("GET", NS + "/entities/ledger-db", A, null);
        var byAlias = cairn.call("GET", NS + "/entities/PG", A, null);

        assertThat(byId.status()).as(byId.body()).isEqualTo(200);
        assertThat(byAlias.json().path("id").asText()).isEqualTo("ledger-db");
        List<String> relations = new ArrayList<>();
        byId.json()
                .path("relations")
                .forEach(
                        r ->
                                relations.add(
                                        r.path("from").asText()
                                                + " "
                                                + r.path("type").asText()
                                                + " "
                                                + r.path("to").asText()));
        assertThat(relations)
                .contains(
                        "document:ledger-db-promote-replica governs entity:ledger-db",
                        "document:ledger-db-backup-restore governs entity:ledger-db");
    }

    @Test
    void relationsParameterBoundsAnEntitysRelationsToItsStrongest() {
        JsonNode all = cairn.call("GET", NS + "/entities/ledger-db", A, null).json();
        int count = all.path("relations").size();
        assertThat(count).isGreaterThan(1);
        assertThat(all.path("relationCount").asInt()).isEqualTo(count);

        JsonNode one = cairn.call("GET", NS + "/entities/ledger-db?relations=1", A, null).json();
        assertThat(one.path("relations")).hasSize(1);
        assertThat(one.path("relations").get(0)).isEqualTo(all.path("relations").get(0));
        assertThat(one.path("relationCount").asInt()).isEqualTo(count);
    }

    @Test
    void listedEntitiesCarryTheirStrongestRelationsWhenAsked() {
        JsonNode plain = cairn.call("GET", NS + "/entities?limit=3", A, null).json();
        assertThat(plain.path("items").get(0).has("relations")).isFalse();

        var answer = cairn.call("GET", NS + "/entities?limit=3&relations=2", A, null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode items = answer.json().path("items");
        assertThat(items).hasSize(3);
        assertThat(answer.json().path("total")).isEqualTo(plain.path("total"));
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            assertThat(item.path("id")).isEqualTo(plain.path("items").get(i).path("id"));
            JsonNode detail =
                    cairn.call("GET", NS + "/entities/" + item.path("id").asText(), A, null).json();
            assertThat(item.path("relationCount")).isEqualTo(detail.path("relationCount"));
            assertThat(item.path("relations").size())
                    .isEqualTo(Math.min(2, detail.path("relationCount").asInt()));
            for (int r = 0; r < item.path("relations").size(); r++) {
                assertThat(item.path("relations").get(r))
                        .isEqualTo(detail.path("relations").get(r));
            }
        }
        assertThat(cairn.call("GET", NS + "/entities?relations=101", A, null).status())
                .isEqualTo(400);
        assertThat(cairn.call("GET", NS + "/entities/ledger-db?relations=-1", A, null).status())
                .isEqualTo(400);
    }

    @Test
    void documentGraphListsMentionedEntitiesAndDeclaredRelations() {
        var answer = cairn.call("GET", NS + "/documents/ledger-db-promote-replica/graph", A, null);

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode body = answer.json();
        assertThat(body.get("documentId").asText()).isEqualTo("ledger-db-promote-replica");
        List<String> entities = new ArrayList<>();
        body.get("entities").forEach(e -> entities.add(e.get("id").asText()));
        assertThat(entities).contains("ledger-db", "checkout-api", "db-b.prod.internal");
        List<String> relations = new ArrayList<>();
        body.get("relations")
                .forEach(
                        r ->
                                relations.add(
                                        r.get("from").asText()
                                                + " "
                                                + r.get("type").asText()
                                                + " "
                                                + r.get("to").asText()));
        assertThat(relations)
                .contains(
                        "document:ledger-db-promote-replica governs entity:ledger-db",
                        "document:ledger-db-promote-replica depends_on"
                                + " entity:db-b.prod.internal");
        assertThat(body.get("relations").get(0).get("weight").asDouble()).isPositive();
    }

    @Test
    void documentGraphOfAnUnknownDocumentIsA404Problem() {
        var answer = cairn.call("GET", NS + "/documents/no-such-doc/graph", A, null);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.json().path("detail").asText()).contains("no-such-doc");
    }

    @Test
    void unknownEntityIsA404Problem() {
        var answer = cairn.call("GET", NS + "/entities/no-such-thing", A, null);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.json().path("detail").asText()).contains("no-such-thing");
    }

    @Test
    void postedRelationIsCreatedAndShownOnTheEntity() {
        var created =
                cairn.call(
                        "POST",
                        NS + "/relations",
                        A,
                        "{\"from\":\"checkout-api\",\"to\":\"ledger-db\",\"type\":\"depends_on\","
                                + "\"confidence\":0.5}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("type").asText()).isEqualTo("depends_on");
        assertThat(created.json().path("weight").asDouble()).isEqualTo(0.4);
        var entity = cairn.call("GET", NS + "/entities/checkout-api", A, null);
        assertThat(entity.status()).as(entity.body()).isEqualTo(200);
        assertThat(entity.json().path("relations").findValuesAsText("type")).contains("depends_on");
    }

    @Test
    void postedRelationEndsAreResolvedAtWriteTimeAndRepeatingItChangesNothing() {
        // "PG" is an alias of ledger-db; the other end is a document id
        String body = "{\"from\":\"search-reindex\",\"to\":\"PG\",\"type\":\"depends_on\"}";
        var first = cairn.call("POST", NS + "/relations", A, body);
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.json().path("from").asText()).isEqualTo("document:search-reindex");
        assertThat(first.json().path("to").asText()).isEqualTo("entity:ledger-db");

        var again = cairn.call("POST", NS + "/relations", A, body);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(first.json());

        var entity = cairn.call("GET", NS + "/entities/ledger-db", A, null).json();
        long edges = 0;
        for (JsonNode r : entity.path("relations")) {
            if (r.path("from").asText().equals("document:search-reindex")
                    && r.path("type").asText().equals("depends_on")) {
                edges++;
            }
        }
        assertThat(edges).as(entity.toString()).isEqualTo(1);
    }

    @Test
    void unknownRelationTypeIsA400NamingTheAllowedValues() {
        var answer =
                cairn.call(
                        "POST",
                        NS + "/relations",
                        A,
                        "{\"from\":\"a\",\"to\":\"b\",\"type\":\"loves\"}");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.json().path("detail").asText())
                .contains("loves", "governs", "supersedes", "contradicts");
    }

    @Test
    void readOnlyTokenCannotPostRelations() {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"shop-reader\",\"roles\":[\"read\"],\"namespaces\":[\"shop\"]}");
        String secret = token.json().path("token").asText();

        assertThat(cairn.call("GET", NS + "/entities", secret, null).status()).isEqualTo(200);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/relations",
                                        secret,
                                        "{\"from\":\"a\",\"to\":\"b\",\"type\":\"governs\"}")
                                .status())
                .isEqualTo(403);
    }

    @Test
    void retrieveAnswerListsLinkedEntitiesRelationsAndGraphPaths() {
        var answer =
                cairn.call(
                        "POST",
                        NS + "/retrieve?trace=true",
                        A,
                        "{\"query\":\"how do I fail over the primary database\"}");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode json = answer.json();
        assertThat(json.path("entities").findValuesAsText("id")).contains("ledger-db");
        assertThat(json.path("entities").findValuesAsText("name")).contains("ledger-db");
        assertThat(json.path("relations").findValuesAsText("type")).contains("governs");
        assertThat(json.path("signals").path("graph").path("status").asText()).isEqualTo("ok");
        JsonNode promote = null;
        for (JsonNode t : json.path("trace")) {
            if (t.path("documentId").asText().equals("ledger-db-promote-replica")
                    && t.has("graphPath")) {
                promote = t;
                break;
            }
        }
        assertThat(promote).as(json.path("trace").toString()).isNotNull();
        assertThat(promote.at("/graphPath/0/type").asText()).isEqualTo("governs");
        assertThat(promote.at("/ranks/graph").asInt()).isPositive();

        // the stored trace tells the same: one trace view for both
        JsonNode stored =
                cairn.call("GET", NS + "/traces/" + json.path("traceId").asText(), A, null).json();
        JsonNode storedPromote = null;
        for (JsonNode t : stored.path("trace")) {
            if (t.path("chunkId").asText().equals(promote.path("chunkId").asText())) {
                storedPromote = t;
            }
        }
        assertThat(storedPromote).as(stored.toString()).isNotNull();
        assertThat(storedPromote.path("graphPath")).isEqualTo(promote.path("graphPath"));
        assertThat(storedPromote.path("ranks")).isEqualTo(promote.path("ranks"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
