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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole proposal lifecycle over HTTP: create, list with filters, get, review (only from
 * pending), apply (only accepted memory proposals; idempotent; tags from the first {@code Tags:}
 * line), archive, and every 409.
 */
@RoutingTest
class ProposalLifecycleTest {

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static final String NS = "/v1/namespaces/gov";
    static final String A = CairnCalls.ADMIN;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn = RoutedCairn.open(dataDir, routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"gov\"}");
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static JsonNode create(String body) {
        var r = cairn.call("POST", NS + "/proposals", A, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    static CairnCalls.Response review(String id, String status) {
        return cairn.call(
                "POST",
                NS + "/proposals/" + id + "/review",
                A,
                "{\"status\":\"" + status + "\",\"reviewer\":\"rita\",\"reviewNote\":\"checked\"}");
    }

    static CairnCalls.Response apply(String id) {
        return cairn.call("POST", NS + "/proposals/" + id + "/apply", A, "{\"appliedBy\":\"ann\"}");
    }

    static void assertConflict(CairnCalls.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(409);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().path("detail").asText())
                .startsWith("cannot ")
                .doesNotContain("memory service");
    }

    @Test
    void reviewStatusErrorNamesOnlyTheTwoDecisions() {
        JsonNode p =
                create(
                        "{\"type\":\"memory\",\"title\":\"Freeze\",\"description\":\"d\","
                                + "\"content\":\"No deploys in the last week of a quarter.\","
                                + "\"taskName\":\"t\",\"agentName\":\"a\",\"memoryType\":\"DECISION\"}");
        String id = p.path("id").asText();
        for (String wrong : List.of("approved", "pending", "applied")) {
            var r = review(id, wrong);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.json().path("detail").asText())
                    .isEqualTo("field 'status' must be accepted or rejected, got '" + wrong + "'");
        }
        assertThat(review(id, " Rejected ").status()).isEqualTo(204);
        assertThat(
                        cairn.call("GET", NS + "/proposals/" + id, A, null)
                                .json()
                                .path("status")
                                .asText())
                .isEqualTo("rejected");
    }

    @Test
    void acceptedMemoryProposalAppliesOnceWithTagsFromTheFirstTagsLine() {
        JsonNode p =
                create(
                        "{\"type\":\"memory\",\"title\":\"Deploy window\",\"description\":\"Seen"
                                + " in three incidents.\\nTags: Deploys, Change-Freeze, deploys\\nTags:"
                                + " ignored\\nAlso tags: nope\",\"content\":\"Production deploys happen"
                                + " only on Tuesdays and Thursdays.\",\"taskName\":\"t1\",\"agentName\":\"ops-agent\","
                                + "\"memoryType\":\"DECISION\"}");
        String id = p.path("id").asText();
        assertThat(p.path("status").asText()).isEqualTo("pending");
        assertThat(p.path("suggestedTags").toString()).isEqualTo("[\"deploys\",\"change-freeze\"]");

        // Review never applies.
        var reviewed = review(id, "accepted");
        assertThat(reviewed.status()).isEqualTo(204);
        assertThat(reviewed.body()).isEmpty();
        JsonNode accepted = cairn.call("GET", NS + "/proposals/" + id, A, null).json();
        assertThat(accepted.path("status").asText()).isEqualTo("accepted");
        assertThat(accepted.path("reviewer").asText()).isEqualTo("rita");
        assertThat(accepted.has("appliedMemoryId")).isFalse();

        var first = apply(id);
        Assumptions.assumeFalse(
                first.body().contains("memory service is not available"),
                "the server runs without the memory service (MemoryPort unwired)");
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        JsonNode memory = first.json();
        assertThat(memory.path("content").asText())
                .isEqualTo("Production deploys happen only on Tuesdays and Thursdays.");
        assertThat(memory.path("type").asText()).isEqualTo("DECISION");
        assertThat(texts(memory.path("tags")))
                .containsExactlyInAnyOrder("deploys", "change-freeze");
        assertThat(memory.path("source").toString()).contains("memory_proposal");
        assertThat(memory.path("sourceProposalId").asText()).isEqualTo(id);

        JsonNode applied = cairn.call("GET", NS + "/proposals/" + id, A, null).json();
        assertThat(applied.path("status").asText()).isEqualTo("applied");
        assertThat(applied.path("appliedMemoryId").asText()).isEqualTo(memory.path("id").asText());
        assertThat(applied.path("appliedBy").asText()).isEqualTo("ann");
        assertThat(applied.path("appliedAt").asText()).isNotBlank();

        var again = apply(id);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("id").asText()).isEqualTo(memory.path("id").asText());

        assertConflict(review(id, "rejected"));
        var archived = cairn.call("POST", NS + "/proposals/" + id + "/archive", A, null);
        assertThat(archived.status()).isEqualTo(204);
        assertConflict(apply(id));
    }

    @Test
    void everyIllegalTransitionIsAConflict() {
        String pending = create(memoryProposal("pending one")).path("id").asText();
        assertConflict(apply(pending));

        String rejected = create(memoryProposal("rejected one")).path("id").asText();
        assertThat(review(rejected, "rejected").status()).isEqualTo(204);
        assertConflict(apply(rejected));
        assertConflict(review(rejected, "accepted"));

        String archived = create(memoryProposal("archived one")).path("id").asText();
        assertThat(cairn.call("POST", NS + "/proposals/" + archived + "/archive", A, null).status())
                .isEqualTo(204);
        assertConflict(review(archived, "accepted"));
        assertConflict(apply(archived));

        String acceptedThenArchived =
                create(memoryProposal("accepted then archived")).path("id").asText();
        review(acceptedThenArchived, "accepted");
        cairn.call("POST", NS + "/proposals/" + acceptedThenArchived + "/archive", A, null);
        assertConflict(apply(acceptedThenArchived));

        String policy =
                create(
                                "{\"type\":\"policy\",\"title\":\"Two reviewers\",\"description\":\"\",\"content\":\"Every production change needs two reviewers.\"}")
                        .path("id")
                        .asText();
        assertThat(review(policy, "accepted").status()).isEqualTo(204);
        assertConflict(apply(policy));

        String twice = create(memoryProposal("reviewed twice")).path("id").asText();
        review(twice, "accepted");
        assertConflict(review(twice, "accepted"));
    }

    @Test
    void aReviewWithoutReviewerAndAnApplyWithoutBodyActAsTheToken() {
        String id = create(memoryProposal("orka style")).path("id").asText();
        var reviewed =
                cairn.call(
                        "POST",
                        NS + "/proposals/" + id + "/review",
                        A,
                        "{\"status\":\"accepted\"}");
        assertThat(reviewed.status()).as(reviewed.body()).isEqualTo(204);
        assertThat(
                        cairn.call("GET", NS + "/proposals/" + id, A, null)
                                .json()
                                .path("reviewer")
                                .asText())
                .isEqualTo("admin");

        var applied = cairn.call("POST", NS + "/proposals/" + id + "/apply", A, null);

        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(
                        cairn.call("GET", NS + "/proposals/" + id, A, null)
                                .json()
                                .path("appliedBy")
                                .asText())
                .isEqualTo("admin");
    }

    @Test
    void badRequestsAndUnknownProposals() {
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/proposals",
                                        A,
                                        "{\"type\":\"memo\",\"title\":\"t\",\"content\":\"c\"}")
                                .status())
                .isEqualTo(400);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/proposals",
                                        A,
                                        "{\"type\":\"memory\",\"content\":\"c\"}")
                                .status())
                .isEqualTo(400);
        String id = create(memoryProposal("bad review")).path("id").asText();
        assertThat(review(id, "pending").status()).isEqualTo(400);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/proposals/" + id + "/review",
                                        A,
                                        "{\"reviewer\":\"rita\"}")
                                .status())
                .isEqualTo(400);
        assertThat(cairn.call("GET", NS + "/proposals/p-missing", A, null).status()).isEqualTo(404);
        assertThat(review("p-missing", "accepted").status()).isEqualTo(404);
        assertThat(apply("p-missing").status()).isEqualTo(404);
        assertThat(cairn.call("POST", NS + "/proposals/p-missing/archive", A, null).status())
                .isEqualTo(404);
    }

    @Test
    void listsWithFiltersAndCursor() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"lists\"}");
        String base = "/v1/namespaces/lists/proposals";
        for (int i = 0; i < 5; i++) {
            cairn.call(
                    "POST",
                    base,
                    A,
                    "{\"type\":\""
                            + (i == 4 ? "skill" : "memory")
                            + "\",\"title\":\"item "
                            + i
                            + "\",\"content\":\"content "
                            + (i == 2 ? "with needle" : "plain")
                            + "\",\"taskName\":\"task-"
                            + (i % 2)
                            + "\",\"agentName\":\"agent-x\"}");
        }
        JsonNode first = cairn.call("GET", base + "?type=memory&limit=2", A, null).json();
        assertThat(first.path("total").asLong()).isEqualTo(4);
        assertThat(titles(first)).containsExactly("item 3", "item 2");
        JsonNode second =
                cairn.call(
                                "GET",
                                base
                                        + "?type=memory&limit=2&cursor="
                                        + first.path("nextCursor").asText(),
                                A,
                                null)
                        .json();
        assertThat(titles(second)).containsExactly("item 1", "item 0");
        assertThat(second.has("nextCursor")).isFalse();
        assertThat(titles(cairn.call("GET", base + "?q=NEEDLE", A, null).json()))
                .containsExactly("item 2");
        assertThat(
                        titles(
                                cairn.call(
                                                "GET",
                                                base + "?taskName=task-1&agentName=agent-x",
                                                A,
                                                null)
                                        .json()))
                .containsExactly("item 3", "item 1");
        assertThat(titles(cairn.call("GET", base + "?status=pending&type=skill", A, null).json()))
                .containsExactly("item 4");
        assertThat(cairn.call("GET", base + "?status=bogus", A, null).status()).isEqualTo(400);
    }

    @Test
    void rolesDecideWhoMayFileReviewAndApply() {
        String writer = token("writer", "write");
        String reader = token("reader", "read");
        var filed = cairn.call("POST", NS + "/proposals", writer, memoryProposal("by writer"));
        assertThat(filed.status()).isEqualTo(201);
        String id = filed.json().path("id").asText();
        assertThat(
                        cairn.call("POST", NS + "/proposals", reader, memoryProposal("by reader"))
                                .status())
                .isEqualTo(403);
        assertThat(cairn.call("GET", NS + "/proposals/" + id, reader, null).status())
                .isEqualTo(200);
        assertThat(
                        cairn.call(
                                        "POST",
                                        NS + "/proposals/" + id + "/review",
                                        writer,
                                        "{\"status\":\"accepted\",\"reviewer\":\"w\"}")
                                .status())
                .isEqualTo(403);
    }

    static String token(String name, String role) {
        var r =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\""
                                + name
                                + "\",\"roles\":[\""
                                + role
                                + "\"],\"namespaces\":[\"gov\"]}");
        assertThat(r.status()).isEqualTo(201);
        return r.json().path("token").asText();
    }

    static String memoryProposal(String title) {
        return "{\"type\":\"memory\",\"title\":\""
                + title
                + "\",\"description\":\"Tags: misc\",\"content\":\"The content of "
                + title
                + " is worth keeping.\"}";
    }

    static List<String> titles(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.path("title").asText()));
        return out;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
