package dev.cairn.server.api.body;

import dev.cairn.store.Namespace;

/** {@code PATCH /v1/namespaces/{ns}}: the settings to change; every field is required. */
public record NamespaceSettingsBody(String recallScope) {

    public Namespace.RecallScope scope() {
        if (recallScope == null) {
            throw new IllegalArgumentException("field 'recallScope' is required");
        }
        return Namespace.RecallScope.parse(recallScope, "recallScope");
    }
}
