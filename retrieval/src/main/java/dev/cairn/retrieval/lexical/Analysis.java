package dev.cairn.retrieval.lexical;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/** Text analysis used for both indexing and queries. */
public enum Analysis {
    /**
     * Lucene's {@link EnglishAnalyzer}: standard tokenizer, possessive removal, lower case,
     * Lucene's English stop words, Porter stemming. This is the chain of Anserini's default English
     * analyzer.
     */
    ENGLISH,
    /** Standard tokenizer and lower case, no stop words, no stemming. */
    STANDARD;

    /** A new analyzer; the caller owns and closes it. */
    Analyzer newAnalyzer() {
        return switch (this) {
            case ENGLISH -> new EnglishAnalyzer();
            case STANDARD -> new StandardAnalyzer();
        };
    }
}
