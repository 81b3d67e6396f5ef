package dev.cairn.server.api.view;

import dev.cairn.store.Namespace;

/** A namespace. */
public record NamespaceView(String name, String description, String createdAt, String recallScope) {

    public static NamespaceView of(Namespace ns) {
        return new NamespaceView(
                ns.name(), ns.description(), ns.createdAt().toString(), ns.recallScope().label());
    }
}
