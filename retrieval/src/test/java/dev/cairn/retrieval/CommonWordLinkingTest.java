package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A common word that a runbook happens to backtick must not become an entity a query links to. On
 * public runbooks the query "etcd member is down how to recover" linked "down" next to "etcd", and
 * the noisy-OR of the two bare mentions put a runbook about another alert, which mentions both,
 * first by the graph, above the runbook lexical and dense both ranked first. The fictional texts
 * here recreate that shape.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommonWordLinkingTest {

    static final String NS = "ops";
    static final String QUERY = "ledgerd member is down, how to recover it";
    static final Duration PATIENT = Duration.ofSeconds(60);

    @TempDir static Path dir;
    Store store;
    KnowledgeBase kb;

    @BeforeAll
    void ingest() {
        store = Store.embedded(dir.resolve("data"));
        store.createNamespace(NS, "fictional runbooks");
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        dir.resolve("lucene"),
                        KnowledgeGraph.open(store),
                        RetrievalConfig.defaults().withTimeouts(PATIENT, PATIENT, PATIENT));
        kb.ingestAll(
                NS,
                List.of(
                        doc(
                                "ledgerd-members-down",
                                "# LedgerdMembersDown\n\nThis alert fires when one or more"
                                        + " ledgerd members are down. To recover a member that is"
                                        + " down, restart it on its host and wait until it rejoins"
                                        + " the quorum."),
                        doc(
                                "gateway-latency-high",
                                "# GatewayLatencyHigh\n\nRequests through the gateway take more"
                                        + " than two seconds. A slow `ledgerd` makes the gateway"
                                        + " wait; a gateway replica whose state is `down` sends"
                                        + " its share to the others."),
                        doc(
                                "invoice-export-stuck",
                                "# InvoiceExportStuck\n\nThe nightly invoice export has not"
                                        + " finished. Look at the export job's log and rerun it."),
                        doc(
                                "cert-expiry",
                                "# CertificateExpiringSoon\n\nA TLS certificate of the public"
                                        + " endpoint expires within a week. Renew it with the"
                                        + " issuer and reload the proxy.")),
                IngestMode.REPLACE,
                r -> {});
    }

    @AfterAll
    void close() {
        kb.close();
        store.close();
    }

    @Test
    void aBacktickedCommonWordDoesNotLiftAnUnrelatedRunbookAboveTheLexicalAndDenseWinner() {
        RetrieveResult result = kb.retrieve(NS, RetrieveRequest.of(QUERY));

        TraceCandidate top = result.candidates().getFirst();
        assertThat(top.documentId()).isEqualTo("ledgerd-members-down");
        assertThat(top.ranks())
                .as("the winner is first by both lexical and dense")
                .containsEntry(Signal.LEXICAL, 1)
                .containsEntry(Signal.DENSE, 1);
        assertThat(result.graph().entities())
                .extracting(GraphContext.LinkedEntity::id)
                .contains("ledgerd")
                .doesNotContain("down");
        assertThat(result.candidates())
                .filteredOn(c -> c.documentId().equals("gateway-latency-high"))
                .allSatisfy(c -> assertThat(c.ranks()).doesNotContainKey(Signal.GRAPH));
    }

    private static ParsedDocument doc(String id, String markdown) {
        return DocumentParser.parseMarkdown(markdown, id);
    }
}
