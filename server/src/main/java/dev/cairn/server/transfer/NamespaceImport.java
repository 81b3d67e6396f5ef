package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.kv.KeyValueRepository;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.judge.store.PolicyRepository;
import dev.cairn.memory.Memory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.service.TurnWindowVectors;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.retrieval.DocumentCopy;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RelationCopy;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.server.api.AdaptationSubject;
import dev.cairn.server.api.view.ImportAnswer;
import dev.cairn.store.Namespace;
import dev.cairn.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Reads an export file into a namespace, in two passes: the first reads every line and refuses the
 * file (naming the line) when one is malformed, when the end line is missing (a truncated file) or
 * when its counts disagree, so nothing of a bad file is written; the second writes the records in
 * batches, each batch one transaction. Records keep their ids, so running an import again over the
 * same file, after an interruption or not, replaces what the first run wrote instead of adding
 * copies, appends only the history entries not stored yet, and leaves unchanged memories alone.
 * Vectors are reused when they come from the model this server embeds with, and embedded again
 * otherwise. Not thread-safe for one namespace (two imports into it at once interleave batches).
 */
public final class NamespaceImport {

    private static final int BATCH = 200;

    /** Documents written per transaction (each with all its chunks). */
    private static final int DOCUMENT_BATCH = 20;

    private final KnowledgeBase knowledge;
    private final Store store;
    private final EmbeddingModel model;

    public NamespaceImport(KnowledgeBase knowledge) {
        this.knowledge = knowledge;
        this.store = knowledge.store();
        this.model = knowledge.model();
    }

    /**
     * The namespace a file was exported from, as its header line says: what an importer that
     * creates the target namespace gives it.
     */
    public record Source(String namespace, String description, Namespace.RecallScope recallScope) {}

    /**
     * The header of {@code file}.
     *
     * @throws IllegalArgumentException when line 1 is not an export header this build reads
     */
    public static Source source(Path file) {
        ExportFormat.Header h = ExportFileReader.header(file);
        return new Source(h.namespace(), h.description(), h.recallScope());
    }

    /**
     * Imports {@code file} into the existing {@code namespace}.
     *
     * @throws IllegalArgumentException naming the line, when the file is malformed or truncated
     * @throws java.util.NoSuchElementException when the namespace does not exist
     */
    public ImportAnswer read(Path file, String namespace) {
        Namespace.requireValidName(namespace);
        if (store.namespace(namespace).isEmpty()) {
            throw new java.util.NoSuchElementException(
                    "namespace '"
                            + namespace
                            + "' does not exist; create it first (cairn import creates it with"
                            + " the exported namespace's settings)");
        }
        ExportFormat.Header header = ExportFileCheck.check(file);
        MemoryRepository memories = MemoryRepository.over(store);
        boolean sameModel =
                header.model().equals(model.id())
                        && header.dimensions() == store.config().dimensions();
        long[] tally = new long[5];
        List<ExportedMemory> batch = new ArrayList<>(BATCH);
        List<DocumentCopy> documents = new ArrayList<>(DOCUMENT_BATCH);
        ConversationRepository conversations = ConversationRepository.sql(store.sql());
        KeyValueRepository entries = KeyValueRepository.sql(store.sql());
        ProposalRepository proposals = ProposalRepository.sql(store.sql());
        PolicyRepository policies = PolicyRepository.sql(store.sql());
        List<RelationCopy> relations = new ArrayList<>();
        List<Judgment> judgments = new ArrayList<>();
        Map<AdaptationSubject, List<Adaptation>> adaptations =
                new java.util.EnumMap<>(AdaptationSubject.class);
        Map<String, Long> records =
                ExportFileReader.each(
                        file,
                        header.version(),
                        new ExportFileReader.Records() {
                            @Override
                            public void memory(ExportedMemory memory) {
                                batch.add(memory);
                                if (batch.size() == BATCH) {
                                    write(memories, namespace, batch, sameModel, tally);
                                    batch.clear();
                                }
                            }

                            @Override
                            public void document(ExportedDocument document) {
                                documents.add(document.copy());
                                if (documents.size() == DOCUMENT_BATCH) {
                                    restore(namespace, documents, tally);
                                    documents.clear();
                                }
                            }

                            @Override
                            public void conversation(ExportedConversation conversation) {
                                int written = conversations.restore(namespace, conversation.copy());
                                tally[written > 0 ? 0 : 1]++;
                            }

                            @Override
                            public void entry(ExportedEntry entry) {
                                var stored = entries.get(namespace, entry.key());
                                if (stored.isPresent() && stored.get().equals(entry.entry())) {
                                    tally[1]++;
                                } else {
                                    entries.restore(namespace, entry.entry());
                                    tally[0]++;
                                }
                            }

                            @Override
                            public void relation(ExportedRelation relation) {
                                relations.add(relation.copy());
                            }

                            @Override
                            public void proposal(ExportedProposal proposal) {
                                tally[proposals.restore(namespace, proposal.proposal()) ? 0 : 1]++;
                            }

                            @Override
                            public void judgment(ExportedJudgment judgment) {
                                judgments.add(judgment.judgment());
                                if (judgments.size() == BATCH) {
                                    restoreJudgments(namespace, judgments, tally);
                                }
                            }

                            @Override
                            public void adaptation(ExportedAdaptation adaptation) {
                                adaptations
                                        .computeIfAbsent(
                                                adaptation.adaptationSubject(),
                                                s -> new ArrayList<>())
                                        .add(adaptation.adaptation());
                            }

                            @Override
                            public void policy(ExportedPolicy policy) {
                                var stored = policies.find(namespace, policy.name());
                                if (stored.isPresent()
                                        && stored.get().document().equals(policy.document())) {
                                    tally[1]++;
                                } else {
                                    policies.put(namespace, policy.name(), policy.document());
                                    tally[0]++;
                                }
                            }
                        });
        restore(namespace, documents, tally);
        write(memories, namespace, batch, sameModel, tally);
        restoreJudgments(namespace, judgments, tally);
        int storedRelations = knowledge.restoreRelations(namespace, relations);
        tally[0] += storedRelations;
        tally[1] += relations.size() - storedRelations;
        long skipped = 0;
        for (var entry : adaptations.entrySet()) {
            List<Adaptation> read = entry.getValue();
            if (!sameModel) {
                skipped += read.size(); // an adapter maps the other model's vectors
                continue;
            }
            AdaptationStore versions = entry.getKey().store(store.sql());
            List<Adaptation> stored = versions.all(namespace);
            List<Adaptation> changed =
                    read.stream().filter(a -> stored.stream().noneMatch(s -> same(s, a))).toList();
            if (entry.getKey() == AdaptationSubject.DOCUMENTS) {
                knowledge.restoreAdaptations(namespace, changed); // this server applies it at once
            } else {
                versions.restore(namespace, changed); // recall reads it within its recheck
            }
            tally[0] += changed.size();
            tally[1] += read.size() - changed.size();
        }
        store.changeLog().catchUp();
        return new ImportAnswer(
                namespace, records, tally[0], tally[1], tally[2], tally[3], tally[4], skipped);
    }

    /** Whether two adaptations are the same version as stored (matrix compared by its bytes). */
    private static boolean same(Adaptation a, Adaptation b) {
        return a.version() == b.version()
                && a.state() == b.state()
                && a.replaces() == b.replaces()
                && a.denseWeight() == b.denseWeight()
                && a.prior().equals(b.prior())
                && a.report().equals(b.report())
                && a.createdAt().equals(b.createdAt())
                && java.util.Arrays.equals(a.adapter().toBytes(), b.adapter().toBytes());
    }

    /** Stores the judgments collected so far and clears the list. */
    private void restoreJudgments(String namespace, List<Judgment> judgments, long[] tally) {
        int stored = knowledge.feedback().restore(namespace, judgments);
        tally[0] += stored;
        tally[1] += judgments.size() - stored;
        judgments.clear();
    }

    private void restore(String namespace, List<DocumentCopy> documents, long[] tally) {
        if (documents.isEmpty()) {
            return;
        }
        DocumentCopy.Restored r = knowledge.restore(namespace, documents);
        tally[0] += r.written();
        tally[1] += r.unchanged();
        tally[3] += r.vectorsReused();
        tally[4] += r.embedded();
    }

    private static boolean sameVectors(Optional<List<float[]>> stored, List<float[]> given) {
        return stored.isPresent()
                && stored.get().size() == given.size()
                && IntStream.range(0, given.size())
                        .allMatch(i -> Arrays.equals(stored.get().get(i), given.get(i)));
    }

    private void write(
            MemoryRepository memories,
            String namespace,
            List<ExportedMemory> batch,
            boolean sameModel,
            long[] tally) {
        if (batch.isEmpty()) {
            return;
        }
        List<MemoryRow> rows = new ArrayList<>();
        List<StatusTransition> appended = new ArrayList<>();
        List<Integer> toEmbed = new ArrayList<>();
        for (ExportedMemory e : batch) {
            float[] vector = ExportFormat.decode(e.vector());
            boolean reuse = sameModel && vector.length > 0 && e.embeddingModel().equals(model.id());
            boolean embed = !reuse && !e.deleted();
            String modelId = reuse || embed ? model.id() : "";
            Memory memory = e.memory(namespace, modelId);
            // the file's windows go with the vector they were computed beside; without them
            // (an older file, or windows never computed) maintenance computes them
            List<float[]> windows = reuse ? e.windowVectors(vector.length) : null;
            List<StatusTransition> history = e.transitions();
            List<StatusTransition> stored = memories.transitions(namespace, e.id());
            Optional<Memory> existing = memories.find(namespace, e.id());
            boolean sameVectors =
                    !reuse
                            || Arrays.equals(memories.embedding(namespace, e.id()), vector)
                                    && (windows == null
                                            || sameVectors(
                                                    memories.windows(namespace, e.id()), windows));
            if (existing.isPresent()
                    && existing.get().equals(memory)
                    && stored.size() >= history.size()
                    && sameVectors) {
                tally[1]++;
                continue;
            }
            if (stored.size() < history.size()) {
                appended.addAll(history.subList(stored.size(), history.size()));
            }
            if (reuse) {
                rows.add(new MemoryRow(memory, vector, windows));
                tally[3]++;
            } else {
                if (embed) {
                    toEmbed.add(rows.size());
                }
                rows.add(new MemoryRow(memory, new float[0]));
            }
        }
        if (!toEmbed.isEmpty()) {
            TurnWindowVectors.Embedded embedded =
                    TurnWindowVectors.embed(
                            model, toEmbed.stream().map(i -> rows.get(i).memory()).toList());
            for (int k = 0; k < toEmbed.size(); k++) {
                int i = toEmbed.get(k);
                rows.set(
                        i,
                        new MemoryRow(
                                rows.get(i).memory(),
                                embedded.vectors().get(k),
                                embedded.windows().get(k)));
            }
            tally[4] += toEmbed.size();
        }
        if (!rows.isEmpty() || !appended.isEmpty()) {
            memories.write(namespace, rows, appended);
        }
        tally[0] += rows.size();
        tally[2] += appended.size();
    }
}
