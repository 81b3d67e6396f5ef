package dev.cairn.client;

import dev.cairn.api.body.ApplyBody;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.FeedbackBody;
import dev.cairn.api.body.JudgeBody;
import dev.cairn.api.body.MemoryEditBody;
import dev.cairn.api.body.NewMemoryBody;
import dev.cairn.api.body.NewProposalBody;
import dev.cairn.api.body.ReasonBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.body.ReviewBody;
import dev.cairn.api.view.DocumentView;
import dev.cairn.api.view.FeedbackViews;
import dev.cairn.api.view.JudgeViews;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.ProposalView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.api.view.RetrieveAnswer;

/**
 * The calls inside one namespace ({@code /v1/namespaces/{ns}/...}): documents and retrieve,
 * memories and recall, proposals, feedback and the judge. Obtained from {@link
 * CairnClient#namespace(String)}; which calls are retried is said there. Thread-safe.
 */
public final class NamespaceClient {

    private final Transport transport;
    private final String name;
    private final String base;

    NamespaceClient(Transport transport, String name) {
        this.transport = transport;
        this.name = name;
        this.base = CairnClient.nsPath(name);
    }

    /** The namespace's name. */
    public String name() {
        return name;
    }

    // ---- knowledge --------------------------------------------------------------------------

    /** {@code POST documents}: stores (or replaces, same id) a document; sent once. */
    public DocumentView.Ingested ingest(DocumentBody document) {
        return ingest(document, false);
    }

    /**
     * {@code POST documents?skipUnchanged=...}: with {@code skipUnchanged}, a document stored
     * already from the same input is answered {@code unchanged} without being embedded again. A
     * document with an id and {@code skipUnchanged} is retried: sending it twice stores it once.
     */
    public DocumentView.Ingested ingest(DocumentBody document, boolean skipUnchanged) {
        boolean idempotent = skipUnchanged && document.id() != null && !document.id().isEmpty();
        return transport.call(
                "POST",
                base + "/documents" + (skipUnchanged ? "?skipUnchanged=true" : ""),
                document,
                idempotent,
                CairnClient.type(DocumentView.Ingested.class));
    }

    /** {@code GET documents}: a page of documents, those matching {@code q} when not empty. */
    public ListAnswer<DocumentView> documents(String q, Page page) {
        Query query = new Query();
        query.add("q", q);
        page.addTo(query);
        return transport.call(
                "GET",
                base + "/documents" + query,
                null,
                true,
                CairnClient.listOf(DocumentView.class));
    }

    /** {@code GET documents/{id}}: the document with its content and chunks. */
    public DocumentView.Detail document(String id) {
        return transport.call(
                "GET", documentPath(id), null, true, CairnClient.type(DocumentView.Detail.class));
    }

    /** {@code DELETE documents/{id}}. */
    public void deleteDocument(String id) {
        transport.call("DELETE", documentPath(id), null, true, null);
    }

    /** {@code POST retrieve}: the hits, best first, with their per-signal ranks and scores. */
    public RetrieveAnswer retrieve(RetrieveBody request) {
        return transport.call(
                "POST", base + "/retrieve", request, false, CairnClient.type(RetrieveAnswer.class));
    }

    /** {@code POST retrieve} of a query with every default but {@code topK}. */
    public RetrieveAnswer retrieve(String query, int topK) {
        return retrieve(RetrieveBody.of(query, topK));
    }

    // ---- memory -----------------------------------------------------------------------------

    /** {@code POST memories}: the memory written, or the one it merged into; sent once. */
    public MemoryView.Written remember(NewMemoryBody memory) {
        return transport.call(
                "POST",
                base + "/memories",
                memory,
                false,
                CairnClient.type(MemoryView.Written.class));
    }

    /** {@code POST recall}: scored memories and the assembled, token-budgeted context. */
    public RecallAnswer recall(RecallBody request) {
        return transport.call(
                "POST", base + "/recall", request, false, CairnClient.type(RecallAnswer.class));
    }

    /** {@code GET memories}: a page of the memories the filter matches. */
    public ListAnswer<MemoryView> memories(MemoryFilter filter, Page page) {
        Query query = new Query();
        filter.addTo(query);
        page.addTo(query);
        return transport.call(
                "GET",
                base + "/memories" + query,
                null,
                true,
                CairnClient.listOf(MemoryView.class));
    }

    /** {@code GET memories/{id}}: the memory and its status history. */
    public MemoryView.Detail memory(String id) {
        return transport.call(
                "GET", memoryPath(id), null, true, CairnClient.type(MemoryView.Detail.class));
    }

    /** {@code PUT memories/{id}}: the fields set in {@code edit} change, null ones stay. */
    public MemoryView.Written updateMemory(String id, MemoryEditBody edit) {
        return transport.call(
                "PUT", memoryPath(id), edit, true, CairnClient.type(MemoryView.Written.class));
    }

    /** {@code DELETE memories/{id}}: a soft delete. */
    public void deleteMemory(String id) {
        transport.call("DELETE", memoryPath(id), null, true, null);
    }

    /** {@code POST memories/{id}/disable}: kept, but out of recall until enabled. */
    public MemoryView disableMemory(String id, String reason) {
        return memoryAction(id, "disable", reason);
    }

    /** {@code POST memories/{id}/enable}. */
    public MemoryView enableMemory(String id, String reason) {
        return memoryAction(id, "enable", reason);
    }

    /** {@code POST memories/{id}/invalidate}: known to be wrong. */
    public MemoryView invalidateMemory(String id, String reason) {
        return memoryAction(id, "invalidate", reason);
    }

    private MemoryView memoryAction(String id, String action, String reason) {
        return transport.call(
                "POST",
                memoryPath(id) + "/" + action,
                new ReasonBody(reason),
                false,
                CairnClient.type(MemoryView.class));
    }

    // ---- proposals --------------------------------------------------------------------------

    /** {@code POST proposals}: a pending proposal. */
    public ProposalView propose(NewProposalBody proposal) {
        return transport.call(
                "POST", base + "/proposals", proposal, false, CairnClient.type(ProposalView.class));
    }

    /** {@code GET proposals}: a page of proposals, newest first. */
    public ListAnswer<ProposalView> proposals(ProposalFilter filter, Page page) {
        Query query = new Query();
        filter.addTo(query);
        page.addTo(query);
        return transport.call(
                "GET",
                base + "/proposals" + query,
                null,
                true,
                CairnClient.listOf(ProposalView.class));
    }

    /** {@code GET proposals/{id}}. */
    public ProposalView proposal(String id) {
        return transport.call(
                "GET", proposalPath(id), null, true, CairnClient.type(ProposalView.class));
    }

    /** {@code POST proposals/{id}/review}: accept or reject a pending proposal (409 otherwise). */
    public void review(String id, ReviewBody review) {
        transport.call("POST", proposalPath(id) + "/review", review, false, null);
    }

    /**
     * {@code POST proposals/{id}/apply}: the durable memory an accepted memory proposal becomes;
     * idempotent (applied again, the same memory), so retried.
     */
    public MemoryView.Applied apply(String id, ApplyBody apply) {
        return transport.call(
                "POST",
                proposalPath(id) + "/apply",
                apply,
                true,
                CairnClient.type(MemoryView.Applied.class));
    }

    /** {@code POST proposals/{id}/archive}. */
    public void archive(String id) {
        transport.call("POST", proposalPath(id) + "/archive", null, false, null);
    }

    // ---- feedback and judge -----------------------------------------------------------------

    /** {@code POST feedback}: judgments of one query's documents, chunks or memories. */
    public FeedbackViews.Recorded feedback(FeedbackBody judgments) {
        return transport.call(
                "POST",
                base + "/feedback",
                judgments,
                false,
                CairnClient.type(FeedbackViews.Recorded.class));
    }

    /** {@code GET feedback}: the judgments, newest first. */
    public ListAnswer<FeedbackViews.JudgmentView> judgments(Page page) {
        Query query = new Query();
        page.addTo(query);
        return transport.call(
                "GET",
                base + "/feedback" + query,
                null,
                true,
                CairnClient.listOf(FeedbackViews.JudgmentView.class));
    }

    /** {@code POST judge}: how well the evidence (or a retrieve's trace) supports an answer. */
    public JudgeViews.Judged judge(JudgeBody request) {
        return transport.call(
                "POST", base + "/judge", request, false, CairnClient.type(JudgeViews.Judged.class));
    }

    private String documentPath(String id) {
        return base + "/documents/" + Query.encode(id);
    }

    private String memoryPath(String id) {
        return base + "/memories/" + Query.encode(id);
    }

    private String proposalPath(String id) {
        return base + "/proposals/" + Query.encode(id);
    }
}
