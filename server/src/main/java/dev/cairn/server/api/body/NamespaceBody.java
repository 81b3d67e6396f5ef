package dev.cairn.server.api.body;

import java.util.Objects;

/** {@code POST /v1/namespaces}. */
public record NamespaceBody(String name, String description) {

    public NamespaceBody {
        name = Objects.requireNonNullElse(name, "");
        description = Objects.requireNonNullElse(description, "");
    }
}
