package dev.cairn.judge.store;

import dev.cairn.judge.PolicyRegistry;
import dev.cairn.store.SqlAccess;
import java.util.List;
import java.util.Optional;

/**
 * Registered policy documents, per namespace. The built-in {@value PolicyRegistry#DEFAULT_POLICY}
 * policy is not stored: it exists unless a document of that name overrides it. Implementations are
 * thread-safe.
 */
public interface PolicyRepository {

    /**
     * Registers (or replaces) the named policy's document. Validates it first.
     *
     * @return true when it replaced an existing one
     * @throws IllegalArgumentException when the document is malformed
     * @throws java.util.NoSuchElementException when the namespace does not exist
     */
    boolean put(String namespace, String name, String document);

    /** The named document; empty when none is registered. */
    Optional<StoredPolicy> find(String namespace, String name);

    /** All registered documents of the namespace, by name. */
    List<StoredPolicy> list(String namespace);

    /** The namespace's registry: its documents plus the built-in default. */
    PolicyRegistry registry(String namespace);

    /** A repository over the store's database ({@code judge_policies}). */
    static PolicyRepository sql(SqlAccess sql) {
        return new SqlPolicyRepository(sql);
    }
}
