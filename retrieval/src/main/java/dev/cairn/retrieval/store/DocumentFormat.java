package dev.cairn.retrieval.store;

/** How a document's content is written. */
public enum DocumentFormat {
    MARKDOWN,
    TEXT
}
