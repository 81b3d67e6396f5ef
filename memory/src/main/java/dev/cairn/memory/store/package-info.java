/**
 * Persistence of memories in the retrieval {@link dev.cairn.store.Store} (tables {@code memories}
 * and {@code memory_transitions}, migration {@code V003__memory.sql}) through {@link
 * dev.cairn.store.SqlAccess}, for both dialects. Every query carries the namespace; a memory of
 * another namespace is simply absent.
 */
package dev.cairn.memory.store;
