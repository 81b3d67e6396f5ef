package dev.cairn.retrieval.lexical;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

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

    /** Shared for {@link #terms}: an analyzer reuses its token streams per thread. */
    private static final Analyzer SHARED_ENGLISH = new EnglishAnalyzer();

    /**
     * The distinct terms of {@code text} as the {@link #ENGLISH} chain indexes them (stop words
     * dropped, Porter stems), in first-occurrence order. Thread-safe.
     */
    public static Set<String> terms(String text) {
        Set<String> out = new LinkedHashSet<>();
        try (TokenStream stream = SHARED_ENGLISH.tokenStream("", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                out.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A new analyzer; the caller owns and closes it. */
    Analyzer newAnalyzer() {
        return switch (this) {
            case ENGLISH -> new EnglishAnalyzer();
            case STANDARD -> new StandardAnalyzer();
        };
    }
}
