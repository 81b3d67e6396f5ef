package dev.cairn.api.view;

/** A namespace: {@code recallScope} is {@code user} or {@code namespace}. */
public record NamespaceView(
        String name, String description, String createdAt, String recallScope) {}
