/**
 * The kernel of the system of record: namespaces, SQL access for the modules' own tables, their
 * migrations, and the change sequence that every derived index (Lucene, dense, graphs, memory
 * tables, transcript and key/value search) follows through the store's one catch-up loop, {@link
 * dev.cairn.store.ChangeLog}. The rows themselves belong to the modules, each with its migrations
 * and its repository classes (documents and chunks to retrieval, memories to memory, conversations
 * to agents, judgements to judge).
 *
 * <p>Two backends behind {@link dev.cairn.store.Store}: embedded (SQLite, the default) and
 * PostgreSQL with pgvector. On open both apply the versioned SQL migrations that each module on the
 * class path contributes through {@link dev.cairn.store.Schema} (this module's own tables, then
 * retrieval's, memory's, agents', judge's). Every table of records has a {@code namespace} column
 * and every query of one filters on it; the store's own server-wide tables (the instance id, the
 * audit of forgotten users, the API tokens of {@link dev.cairn.store.StoredTokens}) are the
 * exceptions.
 */
package dev.cairn.store;
