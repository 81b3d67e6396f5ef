package dev.cairn.retrieval;

import dev.cairn.retrieval.dense.DenseIndex;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.store.Change;
import dev.cairn.store.DerivedIndex;
import java.util.List;
import java.util.Optional;

/**
 * The knowledge base's derived indexes as one {@link DerivedIndex}: BM25 over chunks (Lucene, on
 * disk, so its position survives a restart), the dense index (in memory for the embedded store;
 * PostgreSQL's rows are their own index) and the catalog of document metadata. A {@code DOCUMENT}
 * change re-reads the document's current chunks; a {@code NAMESPACE} delete drops the namespace.
 * Called by the store's change log only, so never concurrently with itself.
 */
final class KnowledgeIndexes implements DerivedIndex.ChangeByChange {

    private final DocumentRepository documents;
    private final LexicalIndex lexical;
    private final DenseIndex dense;
    private final DocumentCatalog catalog;

    KnowledgeIndexes(
            DocumentRepository documents,
            LexicalIndex lexical,
            DenseIndex dense,
            DocumentCatalog catalog) {
        this.documents = documents;
        this.lexical = lexical;
        this.dense = dense;
        this.catalog = catalog;
    }

    @Override
    public String name() {
        return "knowledge";
    }

    @Override
    public long lastAppliedSeq() {
        return lexical.lastAppliedSeq();
    }

    @Override
    public void apply(Change change) {
        String ns = change.namespace();
        switch (change.kind()) {
            case DOCUMENT -> {
                Optional<StoredDocument> document =
                        change.op() == Change.Op.DELETE
                                ? Optional.empty()
                                : documents.document(ns, change.entityId());
                if (document.isEmpty()) {
                    lexical.deleteDocument(ns, change.entityId());
                    dense.removeDocument(ns, change.entityId());
                    catalog.remove(ns, change.entityId());
                    return;
                }
                List<StoredChunk> chunks = documents.chunks(ns, change.entityId());
                String title = document.get().title();
                lexical.upsertDocument(
                        ns,
                        change.entityId(),
                        chunks.stream()
                                .map(
                                        c ->
                                                new IndexedChunk(
                                                        c.id(), title, c.headingPath(), c.text()))
                                .toList());
                dense.replaceDocument(ns, change.entityId(), chunks);
                catalog.put(document.get());
            }
            case NAMESPACE -> {
                if (change.op() == Change.Op.DELETE) {
                    lexical.deleteNamespace(ns);
                    dense.removeNamespace(ns);
                    catalog.removeNamespace(ns);
                }
            }
            default -> {
                // other components' changes
            }
        }
    }

    @Override
    public void applied(long seq) {
        lexical.setLastAppliedSeq(seq);
    }

    @Override
    public void commit() {
        lexical.commit();
    }

    @Override
    public void reset() {
        lexical.deleteAll();
        dense.removeAll();
        catalog.clear();
    }
}
