package dev.cairn.judge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * English text helpers shared by claim splitting, similarity and contradiction detection: tokens, a
 * light suffix-stripping stemmer, stop words and negation cues. Stateless and thread-safe.
 */
final class Text {

    private static final Pattern TOKEN =
            Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?(?:-[\\p{L}\\p{N}]+)*");

    /** Function words that carry no content; negation cues are deliberately not here. */
    static final Set<String> STOP_WORDS =
            Set.of(
                    "a", "an", "the", "and", "or", "but", "if", "then", "than", "so", "of", "in",
                    "on", "at", "to", "for", "from", "by", "with", "as", "into", "onto", "about",
                    "over", "under", "between", "through", "during", "is", "are", "was", "were",
                    "be", "been", "being", "am", "do", "does", "did", "doing", "has", "have", "had",
                    "having", "it", "its", "this", "that", "these", "those", "there", "here",
                    "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "i",
                    "you", "he", "she", "we", "they", "me", "him", "her", "us", "them", "my",
                    "your", "his", "our", "their", "can", "could", "will", "would", "shall",
                    "should", "may", "might", "must", "also", "just", "only", "very", "such",
                    "same", "other", "each", "all", "any", "some", "both", "more", "most", "own",
                    "up", "out", "s", "via", "per", "while", "because", "whether", "within", "upon",
                    "well");

    /** Words that negate the statement they are in. */
    static final Set<String> NEGATIONS =
            Set.of(
                    "not",
                    "no",
                    "never",
                    "none",
                    "nothing",
                    "neither",
                    "nor",
                    "without",
                    "cannot",
                    "can't",
                    "won't",
                    "don't",
                    "doesn't",
                    "didn't",
                    "isn't",
                    "aren't",
                    "wasn't",
                    "weren't",
                    "hasn't",
                    "haven't",
                    "hadn't",
                    "shouldn't",
                    "wouldn't",
                    "couldn't",
                    "mustn't",
                    "lack",
                    "lacks",
                    "lacking",
                    "absent",
                    "fail",
                    "fails",
                    "failed",
                    "unable");

    /**
     * Where a clause ends: punctuation inside a sentence and the conjunctions that start a clause
     * of their own ("A rose, whereas B fell"; "A rose but B did not").
     */
    private static final Pattern CLAUSE_BREAK =
            Pattern.compile(
                    "[,;:()\\[\\]]|\\s(?:but|whereas|although|though|while|however|yet|unlike)\\s",
                    Pattern.CASE_INSENSITIVE);

    private Text() {}

    /** The clauses of a sentence, each as its lower-cased tokens; none empty. */
    static List<List<String>> clauses(String sentence) {
        List<List<String>> out = new ArrayList<>();
        for (String part : CLAUSE_BREAK.split(sentence)) {
            List<String> tokens = tokens(part);
            if (!tokens.isEmpty()) {
                out.add(tokens);
            }
        }
        return out;
    }

    /** Lower-cased word tokens in text order (curly apostrophes folded to straight ones). */
    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT).replace('’', '\''));
        }
        return out;
    }

    /** Whether a lower-cased token is a negation cue. */
    static boolean isNegation(String token) {
        return NEGATIONS.contains(token) || token.endsWith("n't");
    }

    /** Whether a token carries content: not a stop word, not a negation, not a pure number. */
    static boolean isContent(String token) {
        return !STOP_WORDS.contains(token)
                && !isNegation(token)
                && !token.chars().allMatch(Character::isDigit);
    }

    /** Stemmed content words, in first-occurrence order. */
    static Set<String> contentStems(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : tokens(text)) {
            if (isContent(t)) {
                out.add(stem(t));
            }
        }
        return out;
    }

    /** Stemmed content words with repetitions, in text order. */
    static List<String> contentStemList(String text) {
        List<String> out = new ArrayList<>();
        for (String t : tokens(text)) {
            if (isContent(t)) {
                out.add(stem(t));
            }
        }
        return out;
    }

    /**
     * A stemmed content word and where it ends in the text.
     *
     * @param stem the stem
     * @param start index of its first char
     * @param end index after its last char
     */
    record Span(String stem, int start, int end) {}

    /** Stemmed content words with their positions, in text order. */
    static List<Span> contentSpans(String text) {
        List<Span> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            String t = m.group().toLowerCase(Locale.ROOT).replace('’', '\'');
            if (isContent(t)) {
                out.add(new Span(stem(t), m.start(), m.end()));
            }
        }
        return out;
    }

    /** Number of negation cues in the text. */
    static int negations(String text) {
        int n = 0;
        for (String t : tokens(text)) {
            if (isNegation(t)) {
                n++;
            }
        }
        return n;
    }

    /**
     * A light English stemmer: strips {@code -ies/-ing/-ed/-es/-s/-ly} and a final {@code e}, then
     * undoubles a final consonant left by {@code -ing/-ed} ("stopped" to "stop"). Coarser than
     * Porter's, and meant only to make inflections meet: "increases", "increased" and "increasing"
     * all become "increas".
     */
    static String stem(String word) {
        String w = word;
        if (w.length() <= 3) {
            return w;
        }
        boolean undouble = false;
        if ((w.endsWith("ies") || w.endsWith("ied")) && w.length() > 4) {
            w = w.substring(0, w.length() - 3) + "y";
        } else if (w.endsWith("ing") && w.length() > 5) {
            w = w.substring(0, w.length() - 3);
            undouble = true;
        } else if (w.endsWith("ed") && w.length() > 4) {
            w = w.substring(0, w.length() - 2);
            undouble = true;
        } else if (w.endsWith("es") && w.length() > 4 && !w.endsWith("ses")) {
            w = w.substring(0, w.length() - 2);
        } else if (w.endsWith("ly") && w.length() > 5) {
            w = w.substring(0, w.length() - 2);
        } else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            w = w.substring(0, w.length() - 1);
        }
        if (undouble
                && w.length() > 3
                && w.charAt(w.length() - 1) == w.charAt(w.length() - 2)
                && "bdfgmnprt".indexOf(w.charAt(w.length() - 1)) >= 0) {
            w = w.substring(0, w.length() - 1);
        }
        if (w.endsWith("e") && w.length() > 3) {
            w = w.substring(0, w.length() - 1);
        }
        return w;
    }
}
