package dev.cairn.api.body;

/** {@code PATCH /v1/namespaces/{ns}}: the settings to change; every field is required. */
public record NamespaceSettingsBody(String recallScope) {}
