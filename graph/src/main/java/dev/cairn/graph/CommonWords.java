package dev.cairn.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * English stop-words, common words and the generic vocabulary of operations text ({@code
 * common-words.txt}): names the extractor never makes into entities. On 275 OpenShift runbooks,
 * before this list, the entities most chunks mentioned were "or", "pod", "node" and "by", and a
 * query linked to "down".
 *
 * <p>Immutable and thread-safe.
 */
final class CommonWords {

    private static final Set<String> WORDS = load();

    private CommonWords() {}

    /**
     * Whether a canonical key is no name: it holds no letter, is a single letter, or is a common
     * word or an inflection of one ({@code running}, {@code failed}, {@code pods}). Only one-word
     * keys are checked: a phrase of common words ("Blue Green Deploy") can still be a name.
     *
     * @param key a {@link Canonical#key}
     * @return true when the key must not become an entity
     */
    static boolean isCommon(String key) {
        if (key.chars().noneMatch(Character::isLetter) || key.length() < 2) {
            return true;
        }
        if (key.matches("[a-z](?:\\.[a-z])+")) {
            return true; // e.g, i.e
        }
        if (key.indexOf('-') >= 0 || key.indexOf('.') >= 0) {
            return false;
        }
        String w = key.toLowerCase(Locale.ROOT);
        if (WORDS.contains(w)) {
            return true;
        }
        for (String stem : stems(w)) {
            if (WORDS.contains(stem)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether every word of a phrase is common: "Root Cause" or "Check Health" in a Title Case
     * heading describes, it does not name.
     *
     * @param phrase words separated by spaces
     * @return true when no word is a name on its own
     */
    static boolean allCommon(String phrase) {
        for (String word : phrase.strip().split("\\s+")) {
            if (!isCommon(Canonical.key(word))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Candidate stems of an inflected word: -s, -es, -ed, -ing, with a final e or a doubled
     * consonant restored.
     */
    private static Set<String> stems(String w) {
        Set<String> out = new HashSet<>();
        for (String suffix : new String[] {"s", "es", "ed", "ing"}) {
            if (w.length() > suffix.length() + 2 && w.endsWith(suffix)) {
                String stem = w.substring(0, w.length() - suffix.length());
                out.add(stem);
                out.add(stem + "e");
                int n = stem.length();
                if (n > 2 && stem.charAt(n - 1) == stem.charAt(n - 2)) {
                    out.add(stem.substring(0, n - 1));
                }
            }
        }
        if (w.endsWith("ies") && w.length() > 4) {
            out.add(w.substring(0, w.length() - 3) + "y");
        }
        return out;
    }

    private static Set<String> load() {
        Set<String> words = new HashSet<>();
        try (InputStream in = CommonWords.class.getResourceAsStream("common-words.txt")) {
            if (in == null) {
                throw new IllegalStateException("common-words.txt missing from the graph module");
            }
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                int hash = line.indexOf('#');
                String content = hash >= 0 ? line.substring(0, hash) : line;
                for (String word : content.strip().split("\\s+")) {
                    if (!word.isEmpty()) {
                        words.add(word.toLowerCase(Locale.ROOT).replace("'", ""));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(words);
    }
}
