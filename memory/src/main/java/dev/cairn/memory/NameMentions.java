package dev.cairn.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names a memory's text gives people: who its lines address ("hey Fahim!", "thanks so much, Bea
 * 🙏", "Segun, you're a legend") and who they say they are ("I'm Tom", "my name is Priya"). In a
 * chat people call each other by names their speaker labels do not carry ("tomasz_k" is "Tommy" to
 * his friend), and questions name them that way; {@link PersonNames} counts these mentions over a
 * namespace to learn each speaker's other names. Read once per memory when the index loads it.
 * Stateless, thread-safe.
 *
 * <p>A memory's text may be a transcript of several lines, each {@code "<label>: <text>"} (an
 * exchange remembered with the turn it answers): a mention is then said by that line's label;
 * otherwise by the memory's own speaker, {@link Mention#speaker()} empty.
 */
public final class NameMentions {

    /** How a mention names someone. */
    public enum Kind {
        /** Said to someone: the other person in the exchange is that name. */
        ADDRESSED,
        /** Said of oneself: the speaker is that name. */
        INTRODUCED
    }

    /**
     * One name one line gives.
     *
     * @param speaker the line's label, or "" when the line has none (the memory's own speaker)
     * @param name the name, lower case
     */
    public record Mention(String speaker, String name, Kind kind) {
        public Mention {
            Objects.requireNonNull(speaker, "speaker");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
        }
    }

    private static final String NAME = "([\\p{L}][\\p{L}'’-]{1,19})";

    /** What may close an address: punctuation, emoji, the end of the line. */
    private static final String CLOSE =
            "[\\s!?.,…\\p{So}\\p{Sk}\\p{Cs}\\p{Mn}\u200d]*(?:[!?.,…\\p{So}\\p{Cs}]|$)";

    /**
     * Words that address the next word's person: greetings, thanks, farewells. Only a word after
     * one of these, or a capitalised word set off by a comma at either end of the line, is read as
     * a name.
     */
    private static final Pattern AFTER_GREETING =
            Pattern.compile(
                    "(?iu)(?:^|[^\\p{L}])(?:hey+|hi+|hello+|hiya|heya|yo|morning|evening|night|nite"
                            + "|good (?:morning|night|evening)|thanks|thank you|thx|ty|congrats"
                            + "|congratulations|love you|miss you|bye|cheers|happy birthday"
                            + "|welcome back|dear|sorry|omg|aww+),?\\s+"
                            + NAME
                            + "(?![\\p{L}])(?<end>"
                            + CLOSE
                            + ")?");

    /** "Fahim, did you ..." */
    private static final Pattern AT_START = Pattern.compile("^\\s*" + NAME + "\\s*[,!]");

    /** "... see you soon, Fahim!" (emoji and punctuation may follow). */
    private static final Pattern AT_END =
            Pattern.compile(",\\s*" + NAME + "[\\s!?.…\\p{So}\\p{Sk}\\p{Cs}\\p{Mn}\u200d]*$");

    /**
     * "my name is Priya", "call me Dima", "this is Tom here", "I'm Tom, ..." ("I'm" and "it's" only
     * before "here" or a comma: "I'm Italian." is no name).
     */
    private static final Pattern INTRODUCTION =
            Pattern.compile(
                    "(?iu)(?:^|[^\\p{L}])(?:(?:my name is|my name's|call me|this is)\\s+"
                            + NAME
                            + "(?:\\s+here|\\s*[,!.]|$)|(?:i'?m|i am|it'?s)\\s+"
                            + NAME.replace("(", "(?<again>")
                            + "(?:\\s+here|\\s*,))");

    private NameMentions() {}

    /** The mentions of {@code text}, in the order its lines give them. */
    public static List<Mention> of(String text) {
        List<Mention> out = new ArrayList<>(0);
        for (String line : text.split("\n")) {
            TranscriptLine transcript = TranscriptLine.of(line);
            String speaker = transcript.label();
            String said = transcript.said();
            addressed(said, speaker, out);
            Matcher intro = INTRODUCTION.matcher(said);
            while (intro.find()) {
                String name = intro.group(1) != null ? intro.group(1) : intro.group("again");
                if (capitalised(name) && !CommonWords.contains(name)) {
                    out.add(new Mention(speaker, lower(name), Kind.INTRODUCED));
                }
            }
        }
        return out.isEmpty() ? List.of() : List.copyOf(out);
    }

    private static void addressed(String said, String speaker, List<Mention> out) {
        Matcher greeting = AFTER_GREETING.matcher(said);
        // each search starts right before the last name: "omg congrats Tommy" has two greetings
        for (int from = 0; greeting.find(from); from = greeting.start(1) - 1) {
            String name = greeting.group(1);
            // lower case is common in chats ("hey fahim!"), but "thanks for the books" is no
            // address: a name in lower case must close the greeting
            boolean closed = greeting.group("end") != null;
            if ((capitalised(name) || closed) && !CommonWords.contains(name)) {
                out.add(new Mention(speaker, lower(name), Kind.ADDRESSED));
            }
        }
        for (Pattern p : List.of(AT_START, AT_END)) {
            Matcher m = p.matcher(said);
            if (m.find() && capitalised(m.group(1)) && !CommonWords.contains(m.group(1))) {
                Mention mention = new Mention(speaker, lower(m.group(1)), Kind.ADDRESSED);
                if (!out.contains(mention)) {
                    out.add(mention);
                }
            }
        }
    }

    private static boolean capitalised(String word) {
        return Character.isUpperCase(word.codePointAt(0));
    }

    static String lower(String name) {
        return name.replace('’', '\'').replaceAll("'s$", "").toLowerCase(Locale.ROOT);
    }
}
