package dev.cairn.store;

/** How a document's content is written. */
public enum DocumentFormat {
    MARKDOWN,
    TEXT
}
