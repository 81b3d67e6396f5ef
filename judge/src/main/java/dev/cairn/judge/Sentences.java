package dev.cairn.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Rule-based sentence splitting that leaves abbreviations ("e.g.", "Dr."), initials, decimals
 * ("3.5") and versions ("v1.2") whole, and keeps a citation that follows a full stop ("... done.
 * [2]") with the sentence before it. Stateless and thread-safe.
 */
final class Sentences {

    /** Lower-cased words that end with a full stop without ending a sentence. */
    static final Set<String> ABBREVIATIONS =
            Set.of(
                    "e.g", "i.e", "etc", "vs", "cf", "al", "approx", "ca", "dr", "mr", "mrs", "ms",
                    "prof", "sr", "jr", "st", "fig", "figs", "eq", "no", "nos", "vol", "pp", "inc",
                    "ltd", "co", "corp", "dept", "est", "min", "max", "resp", "viz", "u.s", "u.k",
                    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
                    "dec", "ver", "ref", "refs", "sec");

    private static final Pattern CITATION_START =
            Pattern.compile(
                    "^(?:\\[[^\\[\\]\\n]{1,200}\\](?!\\()|\\((?i:sources?|src|ref)\\s*:[^()]{1,300}\\))");

    private Sentences() {}

    /** Sentences of one paragraph or list item, stripped, none empty. */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '.' || c == '!' || c == '?') {
                int end = i + 1;
                while (end < n && ".!?\"'’”)".indexOf(text.charAt(end)) >= 0) {
                    end++;
                }
                if ((end == n || Character.isWhitespace(text.charAt(end)))
                        && (c != '.' || !isAbbreviation(text, i))
                        && !nextStartsLowerCase(text, end)
                        && !(i - start <= 8
                                && text.substring(start, i).strip().matches("\\d{1,3}"))) {
                    int next = skipSpace(text, end);
                    // Citations right after the full stop belong to this sentence.
                    var m = CITATION_START.matcher(text);
                    while (next < n && m.region(next, n).lookingAt()) {
                        end = m.end();
                        next = skipSpace(text, end);
                    }
                    add(out, text.substring(start, end));
                    start = next;
                    i = next;
                    continue;
                }
                i = end;
                continue;
            }
            i++;
        }
        add(out, text.substring(start));
        return out;
    }

    private static void add(List<String> out, String sentence) {
        String s = sentence.strip();
        if (!s.isEmpty()) {
            out.add(s);
        }
    }

    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean nextStartsLowerCase(String text, int from) {
        int i = skipSpace(text, from);
        return i < text.length() && Character.isLowerCase(text.charAt(i));
    }

    /** Whether the full stop at {@code dot} ends an abbreviation or an initial. */
    private static boolean isAbbreviation(String text, int dot) {
        int s = dot;
        while (s > 0 && (Character.isLetter(text.charAt(s - 1)) || text.charAt(s - 1) == '.')) {
            s--;
        }
        String word = text.substring(s, dot).toLowerCase(Locale.ROOT);
        if (word.isEmpty()) {
            return false;
        }
        if (word.length() == 1 && Character.isUpperCase(text.charAt(s))) {
            return true; // an initial, "J. Smith"
        }
        return ABBREVIATIONS.contains(word) || word.contains(".");
    }
}
