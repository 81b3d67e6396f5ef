package dev.cairn.safety;

/**
 * Write-path safety check, applied to memories, proposals and messages before secret redaction and
 * persistence (see {@link SafetyRule} for the rules and their verdicts). Text-matching rules run on
 * a normalised view (NFKC, invisible format characters removed, lower case, whitespace runs
 * collapsed), so "I\u200Bgnore ALL previous instructions" matches too; offsets point into the
 * original text. Implementations are immutable and thread-safe.
 */
public interface WriteSafety {

    /** Default size limit of a memory's content: 16 KiB of UTF-8. */
    int DEFAULT_MAX_MEMORY_BYTES = 16 * 1024;

    /** Default size limit of a proposal's text: 64 KiB of UTF-8. */
    int DEFAULT_MAX_PROPOSAL_BYTES = 64 * 1024;

    /** Default size limit of one conversation message: 256 KiB of UTF-8. */
    int DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

    /** Size limits in UTF-8 bytes per {@link WriteTarget}, each >= 1. */
    record Config(int maxMemoryBytes, int maxProposalBytes, int maxMessageBytes) {
        public Config {
            check("maxMemoryBytes", maxMemoryBytes);
            check("maxProposalBytes", maxProposalBytes);
            check("maxMessageBytes", maxMessageBytes);
        }

        public static Config defaults() {
            return new Config(
                    DEFAULT_MAX_MEMORY_BYTES,
                    DEFAULT_MAX_PROPOSAL_BYTES,
                    DEFAULT_MAX_MESSAGE_BYTES);
        }

        public int limit(WriteTarget target) {
            return switch (target) {
                case MEMORY -> maxMemoryBytes;
                case PROPOSAL -> maxProposalBytes;
                case MESSAGE -> maxMessageBytes;
            };
        }

        private static void check(String name, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(
                        "illegal " + name + ": " + value + ", must be >= 1");
            }
        }
    }

    /** Checks {@code text} written as {@code target}. */
    SafetyResult check(String text, WriteTarget target);

    static WriteSafety create(Config config) {
        return new PatternWriteSafety(config);
    }

    static WriteSafety standard() {
        return new PatternWriteSafety(Config.defaults());
    }
}
