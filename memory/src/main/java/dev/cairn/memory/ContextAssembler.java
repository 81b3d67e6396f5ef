package dev.cairn.memory;

import dev.cairn.embeddings.TokenCounter;
import java.util.List;

/**
 * Composes recalled memories into a token-budgeted context block, layer by layer in {@link Layer}
 * priority order, each layer under a {@code ## <Title>} header, each entry one line:
 *
 * <pre>
 * ## Episodic
 * - [PREFERENCE 2026-03-01 mem_abc] content
 * </pre>
 *
 * Within a layer entries follow {@link ScoredMemory#ORDER}. Content is put on one line (line breaks
 * become spaces, so content cannot fake a header); entries longer than {@link
 * Config#maxEntryTokens()} are truncated and end with " …"; an entry that does not fit whole is
 * truncated to what is left if at least {@link Config#minEntryTokens()} content tokens fit,
 * otherwise omitted (later, shorter entries may still fit). The result never exceeds the budget, as
 * counted by the {@link TokenCounter}. Implementations are thread-safe if the counter is.
 */
public interface ContextAssembler {

    /** Default budget of a context block in tokens (API {@code maxTokens}). */
    int DEFAULT_MAX_TOKENS = 3500;

    /** Default cap on one entry's content in tokens. */
    int DEFAULT_MAX_ENTRY_TOKENS = 300;

    /** Default minimum content tokens for a shortened entry to be worth including. */
    int DEFAULT_MIN_ENTRY_TOKENS = 8;

    /** Entry limits: {@code 1 <= minEntryTokens <= maxEntryTokens}. */
    record Config(int maxEntryTokens, int minEntryTokens) {
        public Config {
            if (minEntryTokens < 1 || minEntryTokens > maxEntryTokens) {
                throw new IllegalArgumentException(
                        "illegal entry token limits: min "
                                + minEntryTokens
                                + ", max "
                                + maxEntryTokens
                                + ", must be 1 <= min <= max");
            }
        }

        public static Config defaults() {
            return new Config(DEFAULT_MAX_ENTRY_TOKENS, DEFAULT_MIN_ENTRY_TOKENS);
        }
    }

    /** Composes {@code memories} within {@code maxTokens} (>= 0). */
    AssembledContext assemble(List<ScoredMemory> memories, int maxTokens);

    /** Composes within {@link #DEFAULT_MAX_TOKENS}. */
    default AssembledContext assemble(List<ScoredMemory> memories) {
        return assemble(memories, DEFAULT_MAX_TOKENS);
    }

    static ContextAssembler create(TokenCounter counter, Config config) {
        return new LayeredContextAssembler(counter, config);
    }

    static ContextAssembler create(TokenCounter counter) {
        return new LayeredContextAssembler(counter, Config.defaults());
    }
}
