package dev.cairn.judge;

import java.util.Objects;

/**
 * A {@code contradicts} relation from the entity graph, between two evidence ids or two entity
 * names. The relation is symmetric for judging purposes.
 *
 * <p>Immutable and thread-safe.
 *
 * @param from an evidence id or entity name; non-blank
 * @param to an evidence id or entity name; non-blank and different from {@code from}
 */
public record ContradictsRelation(String from, String to) {

    public ContradictsRelation {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (from.isBlank() || to.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal contradicts relation: '"
                            + from
                            + "' -> '"
                            + to
                            + "', ends must not be blank");
        }
        if (from.strip().equalsIgnoreCase(to.strip())) {
            throw new IllegalArgumentException(
                    "illegal contradicts relation: '"
                            + from
                            + "' -> '"
                            + to
                            + "', ends must differ");
        }
    }
}
