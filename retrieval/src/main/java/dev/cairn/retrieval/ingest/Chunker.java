package dev.cairn.retrieval.ingest;

import dev.cairn.embeddings.TokenCounter;
import dev.cairn.retrieval.store.ChunkDraft;
import java.util.List;

/** Splits a parsed document into chunks. Implementations are immutable and thread-safe. */
public interface Chunker {

    /**
     * Heading-aware chunking sized in model tokens. Markdown is split at ATX headings ({@code #} to
     * {@code ######}, never inside code fences) into sections, each chunk keeping its heading path;
     * plain text is one section. Within a section, paragraphs (code fences stay whole) are packed
     * up to {@code maxTokens}; an oversized paragraph is split by sentences, an oversized sentence
     * by tokens. Each chunk after the first of a section starts with about the last {@code
     * overlapTokens} tokens of the previous one. No chunk exceeds {@code maxTokens}.
     */
    static Chunker headingAware(TokenCounter counter, ChunkingConfig config) {
        return new HeadingAwareChunker(counter, config);
    }

    /** Chunks of {@code document}'s body in order; empty for a body without text. */
    List<ChunkDraft> chunk(ParsedDocument document);
}
