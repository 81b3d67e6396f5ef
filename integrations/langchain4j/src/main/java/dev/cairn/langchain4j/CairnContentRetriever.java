package dev.cairn.langchain4j;

import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.client.HitMetadata;
import dev.cairn.client.NamespaceClient;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ContentRetriever} over {@code POST retrieve}: one content per hit, in Cairn's order, the
 * chunk's text as the segment. The segment's metadata carries what a caller needs to cite, judge or
 * give feedback on the answer: the retrieve's trace id, the chunk and document ids, title, heading,
 * authority, the fused score and each signal's rank and score (keys in {@link #TRACE_ID} and the
 * other constants, {@link HitMetadata}'s); the content's {@link ContentMetadata#SCORE} is the fused
 * score.
 */
public final class CairnContentRetriever implements ContentRetriever {

    public static final String TRACE_ID = HitMetadata.TRACE_ID;
    public static final String CHUNK_ID = HitMetadata.CHUNK_ID;
    public static final String DOCUMENT_ID = HitMetadata.DOCUMENT_ID;
    public static final String TITLE = HitMetadata.TITLE;
    public static final String HEADING = HitMetadata.HEADING;
    public static final String AUTHORITY = HitMetadata.AUTHORITY;
    public static final String SCORE = HitMetadata.SCORE;

    /**
     * The key prefix of a signal's rank: {@code cairn.rank.lexical}, {@code cairn.rank.dense}...
     */
    public static final String RANK_PREFIX = HitMetadata.RANK_PREFIX;

    /** The key prefix of a signal's score: {@code cairn.score.lexical}... */
    public static final String SCORE_PREFIX = HitMetadata.SCORE_PREFIX;

    private final NamespaceClient namespace;
    private final Function<String, RetrieveBody> request;

    /** Retrieves with the given request for each query text (to set filters, weights or fusion). */
    public CairnContentRetriever(
            NamespaceClient namespace, Function<String, RetrieveBody> request) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.request = Objects.requireNonNull(request, "request");
    }

    /** Retrieves the {@code topK} best chunks, every other setting at the server's default. */
    public static CairnContentRetriever of(NamespaceClient namespace, int topK) {
        if (topK < 1) {
            throw new IllegalArgumentException("topK must be at least 1, was " + topK);
        }
        return new CairnContentRetriever(namespace, query -> RetrieveBody.of(query, topK));
    }

    @Override
    public List<Content> retrieve(Query query) {
        RetrieveAnswer answer = namespace.retrieve(request.apply(query.text()));
        List<Content> contents = new ArrayList<>(answer.hits().size());
        for (RetrieveAnswer.Hit hit : answer.hits()) {
            contents.add(
                    Content.from(
                            TextSegment.from(
                                    hit.text(),
                                    Metadata.from(HitMetadata.of(answer.traceId(), hit))),
                            Map.of(ContentMetadata.SCORE, hit.score())));
        }
        return contents;
    }
}
