package dev.cairn.judge;

import dev.cairn.retrieval.store.Authority;
import java.util.Objects;

/**
 * One piece of evidence an answer may cite: usually a retrieved chunk.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id stable identifier, cited as {@code [id]}; non-blank
 * @param text the evidence text
 * @param title title of the source, cited as {@code (source: Title)}; empty when unknown
 * @param authority how far the evidence can be trusted
 */
public record Evidence(String id, String text, String title, Authority authority) {

    public Evidence {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(authority, "authority");
        if (id.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal evidence id: '" + id + "', must not be blank");
        }
    }

    /** Evidence without a title, of {@link Authority#UNVERIFIED unverified} authority. */
    public static Evidence of(String id, String text) {
        return new Evidence(id, text, "", Authority.UNVERIFIED);
    }
}
