package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationCopy;
import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.kv.KeyValueEntry;
import dev.cairn.agents.kv.KeyValueRepository;
import dev.cairn.judge.store.PolicyRepository;
import dev.cairn.judge.store.StoredPolicy;
import dev.cairn.memory.Memory;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalFilter;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RelationCopy;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Writes a namespace to the export file ({@code docs/export-format.md}): the header, every
 * knowledge document (with its chunks' vectors and front matter), every memory (deleted and
 * disabled ones too, with their vectors and histories), page by page, the ARK conversations and
 * Orloj entries, the relations made through {@code POST relations}, proposals, relevance judgments,
 * trained adaptations and judge policies, and the end line. Streams: memory use does not grow with
 * the namespace. Thread-safe (no state).
 */
public final class NamespaceExport {

    private static final int PAGE = 500;

    /** Every memory, whatever its status. */
    private static final MemoryFilter EVERY_MEMORY =
            new MemoryFilter(
                    "", Set.of(), Set.of(), List.of(), "", "", "", "", "", Set.of(), List.of(),
                    true, true);

    private final KnowledgeBase knowledge;
    private final Store store;
    private final Clock clock;

    public NamespaceExport(KnowledgeBase knowledge, Clock clock) {
        this.knowledge = knowledge;
        this.store = knowledge.store();
        this.clock = clock;
    }

    /**
     * Writes {@code namespace} to {@code out} (flushed, not closed) and answers how many records of
     * each kind it wrote.
     *
     * @throws NoSuchElementException when the namespace does not exist
     */
    public Map<String, Long> write(String namespace, OutputStream out) {
        Namespace ns =
                store.namespace(namespace)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "namespace '" + namespace + "' does not exist"));
        MemoryRepository memories = MemoryRepository.over(store);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String type : ExportFormat.RECORD_TYPES) {
            counts.put(type, 0L);
        }
        try {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            line(
                    w,
                    new ExportFormat.Header(
                            ExportFormat.FORMAT,
                            ExportFormat.VERSION,
                            namespace,
                            ns.description(),
                            ns.recallScope(),
                            clock.instant(),
                            knowledge.model().id(),
                            store.config().dimensions()));
            IOException[] failed = new IOException[1];
            knowledge.forEachCopy(
                    namespace,
                    d -> {
                        if (failed[0] != null) {
                            return;
                        }
                        try {
                            line(w, ExportedDocument.of(d));
                            counts.merge(ExportedDocument.TYPE, 1L, Long::sum);
                        } catch (IOException e) {
                            failed[0] = e;
                        }
                    });
            if (failed[0] != null) {
                throw failed[0];
            }
            PageRequest page = PageRequest.first(PAGE);
            while (true) {
                Page<Memory> batch = memories.list(namespace, EVERY_MEMORY, page);
                for (Memory m : batch.items()) {
                    line(
                            w,
                            ExportedMemory.of(
                                    m,
                                    memories.embedding(namespace, m.id()),
                                    memories.transitions(namespace, m.id())));
                    counts.merge(ExportedMemory.TYPE, 1L, Long::sum);
                }
                if (!batch.hasMore()) {
                    break;
                }
                page = new PageRequest(PAGE, batch.nextCursor());
            }
            List<ConversationCopy> conversations = new ArrayList<>();
            ConversationRepository.sql(store.sql()).forEachCopy(namespace, conversations::add);
            for (ConversationCopy c : conversations) {
                line(w, ExportedConversation.of(c));
                counts.merge(ExportedConversation.TYPE, 1L, Long::sum);
            }
            for (KeyValueEntry e : KeyValueRepository.sql(store.sql()).searchable(namespace)) {
                line(w, ExportedEntry.of(e));
                counts.merge(ExportedEntry.TYPE, 1L, Long::sum);
            }
            for (RelationCopy r : knowledge.relationCopies(namespace)) {
                line(w, ExportedRelation.of(r));
                counts.merge(ExportedRelation.TYPE, 1L, Long::sum);
            }
            ProposalRepository proposals = ProposalRepository.sql(store.sql());
            PageRequest proposalPage = PageRequest.first(PAGE);
            while (true) {
                Page<Proposal> batch = proposals.list(namespace, ProposalFilter.ALL, proposalPage);
                for (Proposal p : batch.items()) {
                    line(w, ExportedProposal.of(p));
                    counts.merge(ExportedProposal.TYPE, 1L, Long::sum);
                }
                if (!batch.hasMore()) {
                    break;
                }
                proposalPage = new PageRequest(PAGE, batch.nextCursor());
            }
            for (Judgment j : knowledge.feedback().all(namespace)) {
                line(w, ExportedJudgment.of(j));
                counts.merge(ExportedJudgment.TYPE, 1L, Long::sum);
            }
            for (Adaptation a : knowledge.adaptations().all(namespace).reversed()) {
                line(w, ExportedAdaptation.of(a));
                counts.merge(ExportedAdaptation.TYPE, 1L, Long::sum);
            }
            for (StoredPolicy p : PolicyRepository.sql(store.sql()).list(namespace)) {
                line(w, ExportedPolicy.of(p));
                counts.merge(ExportedPolicy.TYPE, 1L, Long::sum);
            }
            line(w, new ExportFormat.End(ExportFormat.End.TYPE, counts));
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts;
    }

    private static void line(Writer w, Object record) throws IOException {
        w.write(ExportFormat.JSON.writeValueAsString(record));
        w.write('\n');
    }
}
