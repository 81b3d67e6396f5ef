package dev.cairn.store;

import java.util.List;

/**
 * The store's own tables: settings, the instance id, namespaces, the change log, the audit of
 * forgotten users and the API tokens made through the server's API ({@link StoredTokens}).
 * (Documents and chunks are the retrieval module's, since issue 46.)
 */
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
                "V013__store_instance.sql",
                "V015__namespace_recall_scope.sql",
                "V019__forget_audit.sql",
                "V021__api_tokens.sql");
    }
}
