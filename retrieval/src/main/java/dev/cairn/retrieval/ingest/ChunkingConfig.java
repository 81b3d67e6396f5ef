package dev.cairn.retrieval.ingest;

/**
 * Chunk sizes in model tokens.
 *
 * @param maxTokens most tokens in one chunk, {@code >= 16}
 * @param overlapTokens tokens carried from the end of a chunk into the next chunk of the same
 *     section, in {@code [0, maxTokens / 2]}
 */
public record ChunkingConfig(int maxTokens, int overlapTokens) {

    /**
     * Default chunk budget: 256 tokens, half the 512-token input of BERT-family encoders, so a
     * chunk plus its heading path fits the encoder without truncation.
     */
    public static final int DEFAULT_MAX_TOKENS = 256;

    /** Default overlap: 32 tokens (one eighth of a chunk), about a sentence of context. */
    public static final int DEFAULT_OVERLAP_TOKENS = 32;

    /** Smallest legal budget. */
    public static final int MIN_MAX_TOKENS = 16;

    /** 256 tokens with 32 of overlap. */
    public static final ChunkingConfig DEFAULTS =
            new ChunkingConfig(DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_TOKENS);

    public ChunkingConfig {
        if (maxTokens < MIN_MAX_TOKENS) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be >= " + MIN_MAX_TOKENS);
        }
        if (overlapTokens < 0 || overlapTokens > maxTokens / 2) {
            throw new IllegalArgumentException(
                    "illegal overlapTokens: "
                            + overlapTokens
                            + ", must be in [0, "
                            + maxTokens / 2
                            + "]");
        }
    }
}
