package dev.cairn.retrieval.ingest;

import java.util.List;

/**
 * A chunk before it is stored.
 *
 * @param ordinal 0-based position in the document
 * @param headingPath headings above the chunk, outermost first (empty before the first heading)
 * @param text chunk text (without its headings)
 * @param tokenCount tokens in {@code text}, as the chunker's {@code TokenCounter} counts them
 */
public record ChunkDraft(int ordinal, List<String> headingPath, String text, int tokenCount) {

    public ChunkDraft {
        if (ordinal < 0) {
            throw new IllegalArgumentException("illegal ordinal: " + ordinal + ", must be >= 0");
        }
        if (tokenCount < 0) {
            throw new IllegalArgumentException(
                    "illegal tokenCount: " + tokenCount + ", must be >= 0");
        }
        if (text == null) {
            throw new IllegalArgumentException("illegal text: null");
        }
        headingPath = List.copyOf(headingPath);
    }
}
