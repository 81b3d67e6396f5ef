package dev.cairn.memory;

import java.util.regex.Pattern;

/**
 * The words that make a text a question ("what", "when", "how", "did", "does", "have", "kind of")
 * and say nothing about what it asks. Lucene's English stopwords leave them in, and in a
 * conversation they match the turns that ask something ("What made you try pottery?") rather than
 * those that answer "What does Melanie do to destress?". Stateless, thread-safe.
 */
public final class QuestionWords {

    private static final Pattern QUESTION_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:what|when|where|who|whom|whose|which|why|how"
                            + "|do|does|did|has|have|had|was|were|is|are|am|been|being"
                            + "|would|could|should|can|will|kinds?|types?)\\b");

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]");

    private QuestionWords() {}

    /**
     * {@code query} without its question words, or {@code query} itself when nothing else is left
     * ("Why? How?" keeps its words rather than asking BM25 nothing).
     */
    public static String drop(String query) {
        String rest = QUESTION_WORDS.matcher(query).replaceAll(" ");
        return WORD.matcher(rest).find() ? rest : query;
    }
}
