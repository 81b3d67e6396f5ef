package dev.cairn.retrieval.lexical;

import java.util.List;

/**
 * One chunk as the lexical index sees it.
 *
 * @param chunkId unique id of the chunk within its namespace
 * @param title title of the chunk's document
 * @param headingPath headings above the chunk, outermost first
 * @param text the chunk text
 */
public record IndexedChunk(String chunkId, String title, List<String> headingPath, String text) {

    public IndexedChunk {
        if (chunkId == null || chunkId.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal chunkId: '" + chunkId + "', must be non-empty");
        }
        if (title == null) {
            throw new IllegalArgumentException("illegal title: null, use \"\" for none");
        }
        if (text == null) {
            throw new IllegalArgumentException("illegal text: null, use \"\" for none");
        }
        headingPath = List.copyOf(headingPath == null ? List.of() : headingPath);
    }
}
