package dev.cairn.server.transfer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.agents.conversation.ConversationCopy;
import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.kv.KeyValueRepository;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.Memory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.retrieval.DocumentCopy;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.server.api.view.ImportAnswer;
import dev.cairn.store.Identifiers;
import dev.cairn.store.Namespace;
import dev.cairn.store.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
        ExportFormat.Header h = header(file);
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
        ExportFormat.Header header = check(file);
        MemoryRepository memories = MemoryRepository.over(store);
        boolean sameModel =
                header.model().equals(model.id())
                        && header.dimensions() == store.config().dimensions();
        long[] tally = new long[5];
        List<ExportedMemory> batch = new ArrayList<>(BATCH);
        List<DocumentCopy> documents = new ArrayList<>(DOCUMENT_BATCH);
        ConversationRepository conversations = ConversationRepository.sql(store.sql());
        KeyValueRepository entries = KeyValueRepository.sql(store.sql());
        Map<String, Long> records =
                each(
                        file,
                        new Records() {
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
                        });
        restore(namespace, documents, tally);
        write(memories, namespace, batch, sameModel, tally);
        store.changeLog().catchUp();
        return new ImportAnswer(
                namespace, records, tally[0], tally[1], tally[2], tally[3], tally[4]);
    }

    /** Reads the whole file without writing: its header, when every line is good. */
    private ExportFormat.Header check(Path file) {
        Set<String> ids = new HashSet<>();
        Set<String> documentIds = new HashSet<>();
        ExportFormat.Header header = header(file);
        int dimensions = header.dimensions();
        Set<String> conversationIds = new HashSet<>();
        Set<String> keys = new HashSet<>();
        each(
                file,
                new Records() {
                    @Override
                    public void memory(ExportedMemory memory) {
                        if (!ids.add(memory.id())) {
                            throw new IllegalArgumentException(
                                    "memory '" + memory.id() + "' appears twice");
                        }
                        memory.memory("check", "");
                        memory.transitions();
                        float[] v = ExportFormat.decode(memory.vector());
                        if (v.length != 0 && v.length != dimensions) {
                            throw new IllegalArgumentException(
                                    "illegal vector of memory '"
                                            + memory.id()
                                            + "': "
                                            + v.length
                                            + " dimensions, the header says "
                                            + dimensions);
                        }
                        if (v.length != 0 && memory.embeddingModel().isBlank()) {
                            throw new IllegalArgumentException(
                                    "illegal memory '" + memory.id() + "': a vector with no model");
                        }
                    }

                    @Override
                    public void document(ExportedDocument document) {
                        if (!documentIds.add(document.id())) {
                            throw new IllegalArgumentException(
                                    "document '" + document.id() + "' appears twice");
                        }
                        DocumentCopy copy = document.copy();
                        for (ChunkDraft c : copy.chunks()) {
                            int n = c.embedding().length;
                            if (n != 0 && n != dimensions) {
                                throw new IllegalArgumentException(
                                        "illegal vector of chunk "
                                                + c.ordinal()
                                                + " of document '"
                                                + document.id()
                                                + "': "
                                                + n
                                                + " dimensions, the header says "
                                                + dimensions);
                            }
                        }
                        copy.draft(); // the store's own checks of a document
                    }

                    @Override
                    public void conversation(ExportedConversation conversation) {
                        if (!conversationIds.add(conversation.id())) {
                            throw new IllegalArgumentException(
                                    "conversation '" + conversation.id() + "' appears twice");
                        }
                        ConversationCopy copy = conversation.copy();
                        Identifiers.requireId(copy.id(), "conversation id");
                        copy.messages().forEach(m -> Identifiers.requireId(m.queryId(), "queryId"));
                    }

                    @Override
                    public void entry(ExportedEntry entry) {
                        if (!keys.add(entry.key())) {
                            throw new IllegalArgumentException(
                                    "entry '" + entry.key() + "' appears twice");
                        }
                        entry.entry();
                    }
                });
        return header;
    }

    private static ExportFormat.Header header(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            if (first == null) {
                throw new IllegalArgumentException(
                        "illegal export file: empty, line 1 must be the header");
            }
            return header(first);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static ExportFormat.Header header(String line) {
        ExportFormat.Header h;
        try {
            h = ExportFormat.JSON.readValue(line, ExportFormat.Header.class);
        } catch (JsonProcessingException e) {
            throw atLine(1, "not a Cairn export header (" + firstLine(e) + ")");
        }
        if (!ExportFormat.FORMAT.equals(h.format())) {
            throw atLine(1, "format '" + h.format() + "', must be '" + ExportFormat.FORMAT + "'");
        }
        if (h.version() != ExportFormat.VERSION) {
            throw atLine(
                    1,
                    "version "
                            + h.version()
                            + "; this Cairn reads version "
                            + ExportFormat.VERSION);
        }
        if (h.namespace() == null
                || h.description() == null
                || h.recallScope() == null
                || h.model() == null
                || h.dimensions() < 1) {
            throw atLine(
                    1,
                    "the header needs namespace, description, recallScope, model and dimensions");
        }
        return h;
    }

    /**
     * Hands every record after the header to {@code memories} in file order and answers the end
     * line's counts, after checking them against the records read.
     */
    /** What {@link #each} hands each record to, by type. */
    private interface Records {
        void memory(ExportedMemory memory);

        void document(ExportedDocument document);

        void conversation(ExportedConversation conversation);

        void entry(ExportedEntry entry);
    }

    private static Map<String, Long> each(Path file, Records records) {
        Map<String, Long> seen = new LinkedHashMap<>();
        for (String type : ExportFormat.RECORD_TYPES) {
            seen.put(type, 0L);
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line = r.readLine();
            int lineNo = 1;
            ExportFormat.End end = null;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (end != null) {
                    throw atLine(lineNo, "a record after the end line");
                }
                try {
                    JsonNode node = ExportFormat.JSON.readTree(line);
                    String type =
                            node != null && node.isObject() ? node.path("type").asText("") : "";
                    if (ExportFormat.RECORD_TYPES.contains(type)) {
                        seen.merge(type, 1L, Long::sum);
                    }
                    switch (type) {
                        case ExportedMemory.TYPE ->
                                records.memory(
                                        ExportFormat.JSON.treeToValue(node, ExportedMemory.class));
                        case ExportedDocument.TYPE ->
                                records.document(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedDocument.class));
                        case ExportedConversation.TYPE ->
                                records.conversation(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedConversation.class));
                        case ExportedEntry.TYPE ->
                                records.entry(
                                        ExportFormat.JSON.treeToValue(node, ExportedEntry.class));
                        case ExportFormat.End.TYPE ->
                                end = ExportFormat.JSON.treeToValue(node, ExportFormat.End.class);
                        default ->
                                throw new IllegalArgumentException(
                                        type.isEmpty()
                                                ? "not a record (an object with a type)"
                                                : "unknown record type '" + type + "'");
                    }
                } catch (JsonProcessingException e) {
                    throw atLine(lineNo, firstLine(e));
                } catch (IllegalArgumentException | NullPointerException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith("line ")) {
                        throw e;
                    }
                    throw atLine(lineNo, String.valueOf(e.getMessage()));
                }
            }
            if (end == null) {
                throw new IllegalArgumentException(
                        "truncated export file: line "
                                + lineNo
                                + " is the last and there is no end line");
            }
            if (!seen.equals(end.records())) {
                throw atLine(
                        lineNo,
                        "the end line counts " + end.records() + " but the file holds " + seen);
            }
            return seen;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
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
            List<StatusTransition> history = e.transitions();
            List<StatusTransition> stored = memories.transitions(namespace, e.id());
            Optional<Memory> existing = memories.find(namespace, e.id());
            boolean sameVector =
                    !reuse
                            || java.util.Arrays.equals(
                                    memories.embedding(namespace, e.id()), vector);
            if (existing.isPresent()
                    && existing.get().equals(memory)
                    && stored.size() >= history.size()
                    && sameVector) {
                tally[1]++;
                continue;
            }
            if (stored.size() < history.size()) {
                appended.addAll(history.subList(stored.size(), history.size()));
            }
            if (reuse) {
                rows.add(new MemoryRow(memory, vector));
                tally[3]++;
            } else {
                if (embed) {
                    toEmbed.add(rows.size());
                }
                rows.add(new MemoryRow(memory, new float[0]));
            }
        }
        if (!toEmbed.isEmpty()) {
            List<float[]> vectors =
                    model.embedDocuments(
                            toEmbed.stream().map(i -> rows.get(i).memory().content()).toList());
            for (int k = 0; k < toEmbed.size(); k++) {
                int i = toEmbed.get(k);
                rows.set(i, new MemoryRow(rows.get(i).memory(), vectors.get(k)));
            }
            tally[4] += toEmbed.size();
        }
        if (!rows.isEmpty() || !appended.isEmpty()) {
            memories.write(namespace, rows, appended);
        }
        tally[0] += rows.size();
        tally[2] += appended.size();
    }

    private static IllegalArgumentException atLine(int lineNo, String problem) {
        return new IllegalArgumentException("line " + lineNo + ": " + problem);
    }

    private static String firstLine(JsonProcessingException e) {
        return e.getOriginalMessage().lines().findFirst().orElse("malformed JSON");
    }
}
