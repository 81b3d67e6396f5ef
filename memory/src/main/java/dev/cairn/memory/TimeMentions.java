package dev.cairn.memory;

import java.util.regex.Pattern;

/**
 * Whether a question asks when something happened, and whether a memory says when: "When did
 * Caroline go to the support group?" is answered by the turn "I went to a support group yesterday",
 * not by the later turns that only talk about the group. A memory states a time when it holds a
 * relative expression ("yesterday", "last week", "two years ago", "next month", "this weekend", "on
 * Friday"), a duration ("for 3 years", "two weeks"), a month name (not "May", also a verb) or a
 * year. Stateless, thread-safe.
 */
public final class TimeMentions {

    private static final String UNITS =
            "(?:day|week|weekend|month|year|summer|winter|spring|fall|autumn|night|evening"
                    + "|morning|monday|tuesday|wednesday|thursday|friday|saturday|sunday)";

    private static final String WEEKDAYS =
            "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?";

    private static final String MONTHS =
            "(?:january|february|march|april|june|july|august|september|october|november"
                    + "|december)";

    private static final Pattern STATES_TIME =
            Pattern.compile(
                    "(?i)\\b(?:yesterday|today|tonight|tomorrow|recently|ago"
                            + "|(?:last|this|next|past|few|couple of)\\s+"
                            + UNITS
                            + "s?"
                            + "|(?:on|last|this|next)\\s+"
                            + WEEKDAYS
                            + "|"
                            + MONTHS
                            + "|(?:19|20)\\d\\d"
                            + "|(?:\\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|several)\\s+"
                            + UNITS
                            + "s?)\\b");

    /** "When ...", "What year / month / date ...", "On which day ...", "How long ...". */
    private static final Pattern ASKS_WHEN =
            Pattern.compile(
                    "(?i)(?:^|[.?!]\\s+|\\b(?:and|or)\\s+)when\\b"
                            + "|\\b(?:what|which)\\s+(?:year|month|date|time of year)\\b"
                            + "|\\b(?:on|by)\\s+(?:what|which)\\s+day\\b"
                            + "|\\bhow long\\b");

    private TimeMentions() {}

    /** Whether {@code text} says when something happened or will happen. */
    public static boolean statesTime(String text) {
        return STATES_TIME.matcher(text).find();
    }

    /** Whether {@code query} asks when something happened (or how long ago). */
    public static boolean asksWhen(String query) {
        return ASKS_WHEN.matcher(query.strip()).find();
    }
}
