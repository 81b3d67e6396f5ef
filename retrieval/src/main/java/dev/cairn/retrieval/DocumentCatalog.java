package dev.cairn.retrieval;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.store.PageRequest;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The documents of each namespace without their content, held in memory so that filters and hit
 * hydration need no query per document. Derived: loaded from the store on first use of a namespace
 * and kept current through the change sequence. Thread-safe.
 */
final class DocumentCatalog {

    private final DocumentRepository documents;
    private final Map<String, Map<String, StoredDocument>> byNamespace = new ConcurrentHashMap<>();

    DocumentCatalog(DocumentRepository documents) {
        this.documents = documents;
    }

    Optional<StoredDocument> document(String namespace, String documentId) {
        return Optional.ofNullable(documents(namespace).get(documentId));
    }

    void put(StoredDocument document) {
        Map<String, StoredDocument> docs = byNamespace.get(document.namespace());
        if (docs != null) {
            docs.put(document.id(), withoutContent(document));
        }
    }

    void remove(String namespace, String documentId) {
        Map<String, StoredDocument> docs = byNamespace.get(namespace);
        if (docs != null) {
            docs.remove(documentId);
        }
    }

    void clear() {
        byNamespace.clear();
    }

    void removeNamespace(String namespace) {
        byNamespace.remove(namespace);
    }

    private Map<String, StoredDocument> documents(String namespace) {
        return byNamespace.computeIfAbsent(
                namespace,
                ns -> {
                    Map<String, StoredDocument> docs = new ConcurrentHashMap<>();
                    PageRequest page = PageRequest.first(PageRequest.MAX_LIMIT);
                    while (true) {
                        var result = documents.documents(ns, page, "");
                        result.items().forEach(d -> docs.put(d.id(), withoutContent(d)));
                        if (!result.hasMore()) {
                            return docs;
                        }
                        page = new PageRequest(PageRequest.MAX_LIMIT, result.nextCursor());
                    }
                });
    }

    private static StoredDocument withoutContent(StoredDocument d) {
        return new StoredDocument(
                d.namespace(),
                d.id(),
                d.version(),
                d.title(),
                d.format(),
                d.source(),
                d.authority(),
                d.tags(),
                d.metadata(),
                "",
                d.contentHash(),
                d.createdAt(),
                d.updatedAt());
    }
}
