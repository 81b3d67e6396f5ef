package dev.cairn.store;

import java.util.List;

/** The store's own tables: settings, namespaces, documents, chunks and the change log. */
public final class FoundationSchema implements Schema {

    @Override
    public String module() {
        return "store";
    }

    @Override
    public String resourceRoot() {
        return "/dev/cairn/store/schema/";
    }

    @Override
    public List<String> migrations() {
        return List.of(
                "V001__foundation.sql",
                "V010__ingest_key.sql",
                "V013__store_instance.sql",
                "V015__namespace_recall_scope.sql",
                "V017__model_id_without_precision.sql",
                "V019__forget_audit.sql");
    }
}
