package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One namespace with a backlog of 1,500 ARK messages to embed does not stall another: while the
 * busy namespace's first transcript search starts its backlog, the quiet namespace's recall,
 * retrieve and transcript search answer in full (not partial, with their dense signal).
 */
class NamespaceFairnessTest {

    static final String A = CairnCalls.ADMIN;
    static final int BACKLOG = 1500;

    @Test
    void aNamespaceEmbeddingItsBacklogDoesNotMakeAnotherNamespacePartial(@TempDir Path dataDir)
            throws Exception {
        try (ServerFixture cairn = new ServerFixture(dataDir)) {
            cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"busy\"}");
            cairn.call(
                    "POST",
                    "/v1/namespaces",
                    A,
                    "{\"name\":\"quiet\",\"recallScope\":\"namespace\"}");
            seedQuiet(cairn);
            String conversation =
                    cairn.call("POST", "/ark/busy/conversations", A, null)
                            .json()
                            .path("conversation_id")
                            .asText();
            for (int from = 0; from < BACKLOG; from += 100) {
                StringBuilder messages = new StringBuilder();
                for (int i = from; i < from + 100; i++) {
                    messages.append(i == from ? "" : ",")
                            .append("{\"role\":\"user\",\"content\":\"message ")
                            .append(i)
                            .append(" about the deploy of service ")
                            .append(i % 37)
                            .append(" and the rollback plan for region ")
                            .append(i % 11)
                            .append("\"}");
                }
                assertThat(
                                cairn.call(
                                                "POST",
                                                "/ark/busy/messages",
                                                A,
                                                "{\"conversation_id\":\""
                                                        + conversation
                                                        + "\",\"query_id\":\"q\",\"messages\":["
                                                        + messages
                                                        + "]}")
                                        .status())
                        .isBetween(200, 201);
            }

            CompletableFuture<CairnCalls.Response> busySearch =
                    CompletableFuture.supplyAsync(
                            () ->
                                    cairn.call(
                                            "POST",
                                            "/v1/namespaces/busy/transcripts/search",
                                            A,
                                            "{\"query\":\"rollback plan message 1234\",\"limit\":3}"));
            Thread.sleep(200); // the busy namespace is loading and has queued its backlog

            List<String> quietAnswers = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                JsonNode recall =
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/quiet/recall",
                                        A,
                                        "{\"query\":\"How does the on-call engineer take coffee?\"}")
                                .json();
                assertThat(recall.path("partial").asBoolean()).as(recall.toString()).isFalse();
                assertThat(recall.at("/memories/0/memory/content").asText())
                        .as(recall.toString())
                        .contains("oat milk");
                quietAnswers.add(recall.path("context").asText());
                JsonNode retrieve =
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/quiet/retrieve",
                                        A,
                                        "{\"query\":\"how do I rotate the ingress certificate?\"}")
                                .json();
                assertThat(retrieve.path("partial").asBoolean()).as(retrieve.toString()).isFalse();
                assertThat(retrieve.at("/hits/0/ranks/dense").asInt())
                        .as(retrieve.toString())
                        .isEqualTo(1);
            }
            assertThat(quietAnswers).allSatisfy(c -> assertThat(c).contains("oat milk"));

            CairnCalls.Response busy = busySearch.get();
            assertThat(busy.status()).isEqualTo(200);
            assertThat(busy.json().path("items").get(0).path("snippet").asText())
                    .contains("message 1234 ");
        }
    }

    private static void seedQuiet(ServerFixture cairn) {
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/quiet/documents",
                                        A,
                                        "{\"id\":\"certs\",\"content\":\"# Rotate the ingress"
                                                + " certificate\\n\\nRenew the TLS secret with"
                                                + " cert-manager and restart the ingress"
                                                + " controller.\"}")
                                .status())
                .isEqualTo(201);
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/quiet/memories",
                                        A,
                                        "{\"content\":\"The on-call engineer takes coffee with oat"
                                                + " milk.\",\"type\":\"fact\"}")
                                .status())
                .isEqualTo(201);
    }
}
