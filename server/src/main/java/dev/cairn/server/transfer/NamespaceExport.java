package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationCopy;
import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.kv.KeyValueRepository;
import dev.cairn.judge.store.PolicyRepository;
import dev.cairn.memory.proposal.ProposalFilter;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.api.AdaptationSubject;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
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
            Lines lines = new Lines(w, counts);
            knowledge.forEachCopy(
                    namespace, d -> lines.put(ExportedDocument.TYPE, ExportedDocument.of(d)));
            Page.forEachItem(
                    PAGE,
                    page -> memories.list(namespace, EVERY_MEMORY, page),
                    m ->
                            lines.put(
                                    ExportedMemory.TYPE,
                                    ExportedMemory.of(
                                            m,
                                            memories.embedding(namespace, m.id()),
                                            memories.windows(namespace, m.id()),
                                            memories.transitions(namespace, m.id()))));
            List<ConversationCopy> conversations = new ArrayList<>();
            ConversationRepository.sql(store.sql()).forEachCopy(namespace, conversations::add);
            conversations.forEach(
                    c -> lines.put(ExportedConversation.TYPE, ExportedConversation.of(c)));
            KeyValueRepository.sql(store.sql())
                    .searchable(namespace)
                    .forEach(e -> lines.put(ExportedEntry.TYPE, ExportedEntry.of(e)));
            knowledge
                    .relationCopies(namespace)
                    .forEach(r -> lines.put(ExportedRelation.TYPE, ExportedRelation.of(r)));
            ProposalRepository proposals = ProposalRepository.sql(store.sql());
            Page.forEachItem(
                    PAGE,
                    page -> proposals.list(namespace, ProposalFilter.ALL, page),
                    p -> lines.put(ExportedProposal.TYPE, ExportedProposal.of(p)));
            knowledge
                    .feedback()
                    .all(namespace)
                    .forEach(j -> lines.put(ExportedJudgment.TYPE, ExportedJudgment.of(j)));
            for (AdaptationSubject subject : AdaptationSubject.values()) {
                subject.store(store.sql())
                        .all(namespace)
                        .reversed()
                        .forEach(
                                a ->
                                        lines.put(
                                                ExportedAdaptation.TYPE,
                                                ExportedAdaptation.of(subject, a)));
            }
            PolicyRepository.sql(store.sql())
                    .list(namespace)
                    .forEach(p -> lines.put(ExportedPolicy.TYPE, ExportedPolicy.of(p)));
            line(w, new ExportFormat.End(ExportFormat.End.TYPE, counts));
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts;
    }

    /** Writes records of every type as lines and counts them by type. */
    private record Lines(Writer w, Map<String, Long> counts) {
        void put(String type, Object record) {
            try {
                line(w, record);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            counts.merge(type, 1L, Long::sum);
        }
    }

    private static void line(Writer w, Object record) throws IOException {
        w.write(ExportFormat.JSON.writeValueAsString(record));
        w.write('\n');
    }
}
