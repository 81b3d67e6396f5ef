package dev.cairn.memory;

import java.util.Locale;
import java.util.Objects;

/**
 * Provenance of a memory: how it was written ({@code kind}) and a reference to what it came from (a
 * conversation or message id, a proposal id, an API client; "" when unknown).
 */
public record MemorySource(Kind kind, String reference) {

    /** How a memory was written. */
    public enum Kind {
        /** Written directly through the memory API. */
        API,
        /** Found by an extractor in a query/response pair. */
        EXTRACTION,
        /** An accepted and applied memory proposal. */
        MEMORY_PROPOSAL,
        /** Taken from a stored conversation. */
        CONVERSATION;

        /** Lower-case wire name, e.g. {@code memory_proposal}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Parses a kind name, case-insensitively.
         *
         * @throws IllegalArgumentException naming the allowed values when unknown
         */
        public static Kind parse(String name) {
            return Names.parse(Kind.class, "source kind", name);
        }
    }

    public MemorySource {
        Objects.requireNonNull(kind, "kind");
        reference = Objects.requireNonNull(reference, "reference").strip();
    }

    /** An API write without a reference. */
    public static MemorySource api() {
        return new MemorySource(Kind.API, "");
    }

    public static MemorySource of(Kind kind, String reference) {
        return new MemorySource(kind, reference);
    }
}
