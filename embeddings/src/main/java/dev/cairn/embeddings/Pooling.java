package dev.cairn.embeddings;

/** How token vectors become one sentence vector. */
public enum Pooling {
    /** The final hidden state of the first token ({@code [CLS]}), as BGE models are trained. */
    CLS,
    /** The mean of the final hidden states of the non-padding tokens, as sentence-transformers. */
    MEAN
}
