package dev.cairn.judge;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers, percentages, dates and versions in a text, normalised so that equal values compare equal
 * ("1,000" and "1000"; "50%" and "50 percent"; "v1.2" and "version 1.2"). Each keeps the stemmed
 * content words around it, to tell whether two differing values talk about the same thing.
 * Stateless and thread-safe.
 */
final class Quantities {

    /** What a quantity measures; values of different kinds never conflict. */
    enum Kind {
        NUMBER,
        PERCENT,
        DATE,
        VERSION,
        /**
         * A number right after an all-caps name ("BRCA 1", "HTTP 429"), value {@code "NAME n"}:
         * conflicts only with the same name and another number, and need not be restated for
         * support.
         */
        NAMED_NUMBER
    }

    /**
     * One quantity.
     *
     * @param kind its kind
     * @param value normalised value, e.g. {@code 1000}, {@code 2024-03}, {@code 1.2.0}
     * @param surface the text it was found as
     * @param context stemmed content words within {@link #CONTEXT_WINDOW} tokens of it
     */
    record Quantity(Kind kind, String value, String surface, Set<String> context) {}

    /** Content words on each side of a quantity that make up its context. */
    static final int CONTEXT_WINDOW = 2;

    private static final String MONTHS =
            "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
                    + "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

    private static final Map<String, String> MONTH_NUMBERS =
            Map.ofEntries(
                    Map.entry("jan", "01"),
                    Map.entry("feb", "02"),
                    Map.entry("mar", "03"),
                    Map.entry("apr", "04"),
                    Map.entry("may", "05"),
                    Map.entry("jun", "06"),
                    Map.entry("jul", "07"),
                    Map.entry("aug", "08"),
                    Map.entry("sep", "09"),
                    Map.entry("oct", "10"),
                    Map.entry("nov", "11"),
                    Map.entry("dec", "12"));

    /** Alternatives are tried left to right: dates, then versions, then plain numbers. */
    private static final Pattern QUANTITY =
            Pattern.compile(
                    "(?<iso>\\b\\d{4}-\\d{2}-\\d{2}\\b)"
                            + "|(?<mdy>\\b(?<m1>"
                            + MONTHS
                            + ")\\.?\\s+(?:(?<d1>\\d{1,2})(?:st|nd|rd|th)?,?\\s+)?(?<y1>\\d{4})\\b)"
                            + "|(?<dmy>\\b(?<d2>\\d{1,2})\\s+(?<m2>"
                            + MONTHS
                            + ")\\.?\\s+(?<y2>\\d{4})\\b)"
                            + "|(?<ver>(?:\\b[vV]|\\bversion\\s+|\\brelease\\s+)(?<vnum>\\d+(?:\\.\\d+)*)"
                            + "|\\b(?<vnum2>\\d+\\.\\d+\\.\\d+(?:\\.\\d+)*)\\b)"
                            + "|(?<year>\\b(?:1[89]|20)\\d{2}\\b(?![.,]?\\d))"
                            + "|(?<num>(?<![\\p{L}\\d.])-?\\d+(?:,\\d{3})*(?:\\.\\d+)?(?![\\d.]\\d))"
                            + "(?<pct>\\s*(?:%|percent\\b|per\\s+cent\\b))?",
                    Pattern.CASE_INSENSITIVE);

    private Quantities() {}

    /** The quantities in {@code text}, in text order. */
    static List<Quantity> of(String text) {
        List<Quantity> out = new ArrayList<>();
        List<Text.Span> spans = Text.contentSpans(text);
        Matcher m = QUANTITY.matcher(text);
        while (m.find()) {
            Kind kind;
            String value;
            if (m.group("iso") != null) {
                kind = Kind.DATE;
                value = m.group("iso");
            } else if (m.group("mdy") != null) {
                kind = Kind.DATE;
                value = date(m.group("y1"), m.group("m1"), m.group("d1"));
            } else if (m.group("dmy") != null) {
                kind = Kind.DATE;
                value = date(m.group("y2"), m.group("m2"), m.group("d2"));
            } else if (m.group("ver") != null) {
                kind = Kind.VERSION;
                value = version(m.group("vnum") != null ? m.group("vnum") : m.group("vnum2"));
            } else if (m.group("year") != null) {
                kind = Kind.DATE;
                value = m.group("year");
            } else {
                kind = m.group("pct") != null ? Kind.PERCENT : Kind.NUMBER;
                value = number(m.group("num"));
            }
            String name = kind == Kind.NUMBER ? nameBefore(text, m.start()) : "";
            if (!name.isEmpty()) {
                kind = Kind.NAMED_NUMBER;
                value = name + " " + value;
            }
            out.add(
                    new Quantity(
                            kind, value, m.group().strip(), context(spans, m.start(), m.end())));
        }
        return out;
    }

    /**
     * The all-caps name a number at {@code start} follows, as in "BRCA 1" or "HTTP 429", or empty.
     */
    private static String nameBefore(String text, int start) {
        int end = start;
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        int s = end;
        while (s > 0 && Character.isLetterOrDigit(text.charAt(s - 1))) {
            s--;
        }
        String word = text.substring(s, end);
        boolean name =
                end < start
                        && word.length() >= 2
                        && word.chars().anyMatch(Character::isLetter)
                        && word.chars()
                                .allMatch(ch -> Character.isUpperCase(ch) || Character.isDigit(ch));
        return name ? word : "";
    }

    private static String date(String year, String month, String day) {
        String mm = MONTH_NUMBERS.get(month.substring(0, 3).toLowerCase(Locale.ROOT));
        return day == null
                ? year + "-" + mm
                : year + "-" + mm + "-" + (day.length() == 1 ? "0" + day : day);
    }

    /** Versions compare with trailing ".0" parts dropped: 1.2 equals 1.2.0. */
    private static String version(String v) {
        String s = v;
        while (s.endsWith(".0") && s.indexOf('.') != s.lastIndexOf('.')) {
            s = s.substring(0, s.length() - 2);
        }
        if (s.endsWith(".0")) {
            s = s.substring(0, s.length() - 2);
        }
        return s;
    }

    private static String number(String n) {
        try {
            BigDecimal d = new BigDecimal(n.replace(",", "")).stripTrailingZeros();
            return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
        } catch (NumberFormatException e) {
            return n;
        }
    }

    private static Set<String> context(List<Text.Span> spans, int start, int end) {
        int firstAfter = 0;
        while (firstAfter < spans.size() && spans.get(firstAfter).start() < end) {
            firstAfter++;
        }
        int lastBefore = firstAfter - 1;
        while (lastBefore >= 0 && spans.get(lastBefore).end() > start) {
            lastBefore--;
        }
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (int k = Math.max(0, lastBefore - CONTEXT_WINDOW + 1); k <= lastBefore; k++) {
            out.add(spans.get(k).stem());
        }
        for (int k = firstAfter; k < Math.min(spans.size(), firstAfter + CONTEXT_WINDOW); k++) {
            out.add(spans.get(k).stem());
        }
        return out;
    }
}
