/**
 * Documents and their chunks in the store: the records, and {@link
 * dev.cairn.retrieval.store.DocumentRepository}, the only code that reads and writes the documents
 * and chunks tables (retrieval's migration V010), over the store's SQL access in either dialect.
 * Each write is one transaction with its {@code DOCUMENT} change, which the knowledge indexes
 * follow.
 */
package dev.cairn.retrieval.store;
