package dev.cairn.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The windows of a long conversation turn that the encoder embeds beside the whole memory (issue 39
 * item 3). A turn of 80-250 words tells of several things, and one vector of a small encoder for
 * all of it sits between them: a question about one of them finds the turn only when it comes near
 * that average. A memory of a turn whose own line (its last line, without its label) has more than
 * {@link #ABOVE} words also gets a vector per window of {@link #WORDS} words, every {@link #STRIDE}
 * words, each with the line's label; recall scores the memory by the best of its own cosine and its
 * windows'. Chosen on the tuning parts of three kinds of conversation (docs/memory.md, "Windows
 * over long turns"). Stateless, thread-safe.
 */
public final class TurnWindows {

    /** Words per window. */
    public static final int WORDS = 32;

    /** Words from one window's start to the next one's: windows overlap by half. */
    public static final int STRIDE = WORDS / 2;

    /** A turn's own line gets windows when it has more words than this. */
    public static final int ABOVE = 30;

    private TurnWindows() {}

    /**
     * The texts to embed as windows of {@code content}'s own line: empty when the line has {@link
     * #ABOVE} words or fewer. Words are what whitespace separates; the last window ends with the
     * line.
     */
    public static List<String> of(String content) {
        TranscriptLine own = TranscriptLine.last(content);
        String said = own.said().strip();
        if (said.isEmpty()) {
            return List.of();
        }
        String[] words = said.split("\\s+");
        if (words.length <= ABOVE) {
            return List.of();
        }
        String label = own.label().isEmpty() ? "" : own.label() + ": ";
        List<String> windows = new ArrayList<>();
        for (int from = 0; ; from += STRIDE) {
            int to = Math.min(words.length, from + WORDS);
            windows.add(label + String.join(" ", Arrays.copyOfRange(words, from, to)));
            if (to == words.length) {
                return windows;
            }
        }
    }
}
