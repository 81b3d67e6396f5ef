package dev.cairn.memory;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a memory's text, read as a transcript line {@code "<label>: <text>"} when it is one.
 * A memory of a conversation turn is often remembered with the turn it answers, one labelled line
 * each; the last line is then the memory's own turn. Stateless, thread-safe.
 *
 * @param label the line's label, or "" when the line has none
 * @param said what the line says, without its label
 */
public record TranscriptLine(String label, String said) {

    /** A transcript line's label: up to four words before a colon at the line's start. */
    private static final Pattern LABELLED_LINE =
            Pattern.compile("^([\\p{L}\\p{N}][\\p{L}\\p{N} ._'-]{0,39}):\\s(.*)$");

    /** Words: letters and digits; "[image]" and other bracketed placeholders are no words. */
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\[[^\\]\\n]{0,40}]");

    public TranscriptLine {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(said, "said");
    }

    /** {@code line} as a transcript line, or with an empty label when it has none. */
    public static TranscriptLine of(String line) {
        Matcher labelled = LABELLED_LINE.matcher(line);
        return labelled.matches()
                ? new TranscriptLine(labelled.group(1).strip(), labelled.group(2))
                : new TranscriptLine("", line);
    }

    /** The last line of {@code text}: a remembered turn's own line. */
    public static TranscriptLine last(String text) {
        String stripped = text.strip();
        return of(stripped.substring(stripped.lastIndexOf('\n') + 1));
    }

    /**
     * Whether the line ends asking: its last mark, after any emoji, bracketed placeholders and
     * spaces, is a question mark ("did you book it?", "how was lisbon?? 😍"). A question ending a
     * turn is answered by the other speaker's next turn, if at all; one asked in passing mid-turn
     * ("how are you? anyway, the boiler ...") is not what the turn is about.
     */
    public boolean asks() {
        String text = PLACEHOLDER.matcher(said).replaceAll(" ");
        int i = text.length();
        while (i > 0) {
            int c = text.codePointBefore(i);
            if (!Character.isWhitespace(c) && !decoration(c)) {
                return c == '?' || c == '？';
            }
            i -= Character.charCount(c);
        }
        return false;
    }

    /** Emoji, their modifiers and joiners: what may follow a question mark without ending it. */
    private static boolean decoration(int c) {
        int type = Character.getType(c);
        return type == Character.OTHER_SYMBOL
                || type == Character.MODIFIER_SYMBOL
                || type == Character.NON_SPACING_MARK
                || type == Character.ENCLOSING_MARK
                || type == Character.FORMAT;
    }

    /** How many words the line says (its label and bracketed placeholders not counted). */
    public int words() {
        Matcher m = WORD.matcher(PLACEHOLDER.matcher(said).replaceAll(" "));
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
