package dev.cairn.retrieval.ingest;

/** Source format of a parsed document. */
public enum DocumentFormat {
    /** Markdown, optionally with YAML front matter. */
    MARKDOWN,
    /** Plain text (also BEIR corpus documents). */
    TEXT
}
