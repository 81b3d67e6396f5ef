package dev.cairn.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.client.HitMetadata;
import dev.cairn.client.NamespaceClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * A Spring AI {@link VectorStore} over one Cairn namespace's documents: {@code add} ingests, {@code
 * delete} deletes by id, {@code similaritySearch} is one {@code POST retrieve} (Cairn's hybrid
 * ranking: BM25, dense, graph, fused). Cairn embeds with its own model, so the store takes no
 * {@code EmbeddingModel}.
 *
 * <p><b>Adding.</b> A {@link Document} becomes a Cairn document (format {@code text}) with the same
 * id and its text as the content. Four metadata keys fill Cairn's document fields: {@value #TITLE},
 * {@value #SOURCE}, {@value #AUTHORITY} ({@code authoritative}, {@code supporting} or {@code
 * unverified}) and {@value #TAGS} (a string or a collection of strings); every other key is stored
 * as Cairn metadata, a string as it is and any other value as its JSON text. A document id already
 * stored is replaced; an unchanged one is skipped without being embedded again.
 *
 * <p><b>Searching.</b> Cairn retrieves chunks: one hit is one chunk of a document (a document
 * longer than a chunk may answer with several), and becomes a {@code Document} whose id is the
 * chunk id ({@code <document id>#<ordinal>}), whose text is the chunk's text, whose score is the
 * fused score, and whose metadata is {@link HitMetadata}'s ({@code cairn.documentId}, {@code
 * cairn.traceId}, each signal's rank and score...). The document's own metadata is not in the hit.
 * The order is Cairn's. {@code similarityThreshold} keeps the hits whose fused score is at least
 * it: fused scores are rank-based (reciprocal-rank fusion, about 0.01 to 0.05 at the default k of
 * 60, not a cosine similarity), so keep the default 0 unless you know the scale. A filter
 * expression becomes Cairn's retrieve filters ({@link FilterTranslation}: {@code ==} and {@code in}
 * on a metadata key or on {@value #TAGS}, {@value #SOURCE} and {@value #AUTHORITY}, joined with
 * {@code &&}); any other operator is refused with an {@link IllegalArgumentException} before a
 * call.
 *
 * <p>Thread-safe, as the client is.
 */
public final class CairnVectorStore implements VectorStore {

    /** The metadata key of a document's title. */
    public static final String TITLE = "title";

    /** The metadata key of a document's source (a URL, a path). */
    public static final String SOURCE = "source";

    /** The metadata key of a document's authority. */
    public static final String AUTHORITY = "authority";

    /** The metadata key of a document's tags. */
    public static final String TAGS = "tags";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final NamespaceClient namespace;

    public CairnVectorStore(NamespaceClient namespace) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
    }

    @Override
    public String getName() {
        return "CairnVectorStore";
    }

    /** The namespace client the store calls. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> Optional<T> getNativeClient() {
        return Optional.of((T) namespace);
    }

    /** {@code POST documents?skipUnchanged=true}, one call per document. */
    @Override
    public void add(List<Document> documents) {
        for (Document document : documents) {
            namespace.ingest(body(document), true);
        }
    }

    /** {@code DELETE documents/{id}}, one call per id; an unknown id is a 404 CairnException. */
    @Override
    public void delete(List<String> idList) {
        for (String id : idList) {
            namespace.deleteDocument(id);
        }
    }

    /**
     * Not supported: Cairn deletes documents by id only ({@link #delete(List)}); a filter would
     * have to be evaluated here, over every document of the namespace.
     */
    @Override
    public void delete(Filter.Expression filterExpression) {
        throw new UnsupportedOperationException(
                "Cairn deletes documents by id only: call delete(List<String> ids)");
    }

    @Override
    public List<Document> similaritySearch(SearchRequest request) {
        RetrieveBody.Filters filters =
                request.hasFilterExpression()
                        ? FilterTranslation.filters(request.getFilterExpression())
                        : RetrieveBody.Filters.NONE;
        RetrieveAnswer answer =
                namespace.retrieve(
                        RetrieveBody.of(request.getQuery(), request.getTopK())
                                .withFilters(filters));
        List<Document> documents = new ArrayList<>(answer.hits().size());
        for (RetrieveAnswer.Hit hit : answer.hits()) {
            if (hit.score() >= request.getSimilarityThreshold()) {
                documents.add(
                        Document.builder()
                                .id(hit.chunkId())
                                .text(hit.text())
                                .metadata(HitMetadata.of(answer.traceId(), hit))
                                .score(hit.score())
                                .build());
            }
        }
        return documents;
    }

    static DocumentBody body(Document document) {
        if (!document.isText()) {
            throw new IllegalArgumentException(
                    "document " + document.getId() + " holds media; Cairn stores text only");
        }
        Map<String, JsonNode> metadata = new LinkedHashMap<>();
        document.getMetadata()
                .forEach(
                        (key, value) -> {
                            if (!List.of(TITLE, SOURCE, AUTHORITY, TAGS).contains(key)) {
                                metadata.put(key, JSON.valueToTree(value));
                            }
                        });
        Map<String, Object> fields = document.getMetadata();
        return new DocumentBody(
                document.getId(),
                text(fields.get(TITLE)),
                document.getText(),
                "text",
                text(fields.get(SOURCE)),
                text(fields.get(AUTHORITY)),
                tags(document.getId(), fields.get(TAGS)),
                metadata);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private static List<String> tags(String id, Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String tag) {
            return List.of(tag);
        }
        if (value instanceof Collection<?> tags
                && tags.stream().allMatch(tag -> tag instanceof String)) {
            return tags.stream().map(String.class::cast).toList();
        }
        throw new IllegalArgumentException(
                "document "
                        + id
                        + ": metadata '"
                        + TAGS
                        + "' must be a string or a collection of strings, was "
                        + value);
    }
}
