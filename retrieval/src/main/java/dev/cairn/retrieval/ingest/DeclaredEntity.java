package dev.cairn.retrieval.ingest;

import java.util.List;

/**
 * An entity declared in front matter: {@code {name, kind, aliases}}.
 *
 * @param name non-blank entity name
 * @param kind entity kind, e.g. {@code service}; "" when not given
 * @param aliases other names of the entity
 */
public record DeclaredEntity(String name, String kind, List<String> aliases) {

    public DeclaredEntity {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal entity name: '" + name + "', must be non-blank");
        }
        kind = kind == null ? "" : kind;
        aliases = List.copyOf(aliases == null ? List.of() : aliases);
    }
}
