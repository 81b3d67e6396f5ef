package dev.cairn.server.api.body;

import dev.cairn.store.Namespace;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces}: a name, a description and what a recall without a user reads ({@code
 * user}, the default, or {@code namespace}).
 */
public record NamespaceBody(String name, String description, String recallScope) {

    public NamespaceBody {
        name = Objects.requireNonNullElse(name, "");
        description = Objects.requireNonNullElse(description, "");
        recallScope = Objects.requireNonNullElse(recallScope, Namespace.RecallScope.USER.label());
    }

    public Namespace.RecallScope scope() {
        return Namespace.RecallScope.parse(recallScope, "recallScope");
    }
}
