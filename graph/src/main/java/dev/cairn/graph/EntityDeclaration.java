package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * An entity declared in front matter: {@code {name: ledger-db, kind: database, aliases: [PG]}}.
 *
 * @param name display name; its canonical key is the entity id
 * @param kind entity kind
 * @param aliases other names; each one links to this entity
 */
public record EntityDeclaration(String name, EntityKind kind, List<String> aliases) {

    /** Validates and copies. */
    public EntityDeclaration {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (Canonical.key(name).isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal entity name: '" + name + "', must contain a letter or digit");
        }
        aliases = List.copyOf(aliases);
    }
}
