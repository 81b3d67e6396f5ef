package dev.cairn.memory;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The period a recall query names, when it names one by the calendar: "in June", "in April 2022",
 * "on 13 October, 2023", "October 13, 2023". A memory written in that period (or shortly after,
 * since people tell of events days later) is likelier to be the one asked about. Months without a
 * year match that month of any year. Relative expressions ("last week") are not periods here: they
 * depend on when the question is asked, not on the memory. Immutable, thread-safe.
 *
 * @param month the month named
 * @param year the year named, 0 for any
 * @param day the day of month named, 0 for the whole month
 */
public record QueryPeriod(Month month, int year, int day) {

    /** How long after the period a memory of it may still be written. */
    public static final int TELLING_DELAY_DAYS = 14;

    private static final String MONTHS =
            String.join(
                    "|",
                    java.util.Arrays.stream(Month.values())
                            .map(m -> m.getDisplayName(TextStyle.FULL, Locale.ENGLISH))
                            .toList());

    /** "13 October, 2023", "October 13, 2023", "October 2023", "October". */
    private static final Pattern DATE =
            Pattern.compile(
                    "(?i)\\b(?:(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?)?("
                            + MONTHS
                            + ")\\b(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b)?,?(?:\\s+(\\d{4})\\b)?");

    /** The first calendar period {@code query} names, if any. */
    public static Optional<QueryPeriod> of(String query) {
        Matcher m = DATE.matcher(query);
        while (m.find()) {
            String monthName = m.group(2);
            boolean dated = m.group(1) != null || m.group(3) != null || m.group(4) != null;
            // "may" is also a verb: without a day or a year it is a month only after "in"
            if (monthName.equalsIgnoreCase("may")
                    && !dated
                    && !query.substring(0, m.start(2)).toLowerCase(Locale.ROOT).endsWith("in ")) {
                continue;
            }
            Month month = Month.valueOf(monthName.toUpperCase(Locale.ROOT));
            int day = parse(m.group(1) != null ? m.group(1) : m.group(3));
            int year = parse(m.group(4));
            if (day > month.maxLength()) {
                day = 0;
            }
            return Optional.of(new QueryPeriod(month, year, day));
        }
        return Optional.empty();
    }

    private static int parse(String digits) {
        return digits == null ? 0 : Integer.parseInt(digits);
    }

    /**
     * Whether {@code at} falls in this period or within {@link #TELLING_DELAY_DAYS} after it (UTC
     * dates).
     */
    public boolean covers(Instant at) {
        LocalDate date = at.atZone(ZoneOffset.UTC).toLocalDate();
        List<Integer> years = new ArrayList<>();
        if (year > 0) {
            years.add(year);
        } else {
            years.add(date.getYear());
            years.add(date.getYear() - 1);
        }
        for (int y : years) {
            LocalDate start = day > 0 ? LocalDate.of(y, month, day) : LocalDate.of(y, month, 1);
            LocalDate end =
                    (day > 0 ? start : start.withDayOfMonth(start.lengthOfMonth()))
                            .plusDays(TELLING_DELAY_DAYS);
            if (!date.isBefore(start) && !date.isAfter(end)) {
                return true;
            }
        }
        return false;
    }
}
