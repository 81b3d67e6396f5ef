package dev.cairn.api.body;

import java.util.Objects;

/**
 * {@code POST /v1/namespaces}: a name, a description and what a recall without a user reads ({@code
 * user} or {@code namespace}; null takes the server's default, {@code user}).
 */
public record NamespaceBody(String name, String description, String recallScope) {

    public NamespaceBody {
        name = Objects.requireNonNullElse(name, "");
        description = Objects.requireNonNullElse(description, "");
    }
}
