package dev.cairn.memory;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The copy of a chat message that matching reads: stretched words shortened ("sooo" -> "so",
 * "FAYYYY" -> "FAY"), chat shorthand written out ("bday" -> "birthday", "yday" -> "yesterday",
 * "2wks" -> "2 weeks") and common misspellings corrected ("definately", "tommorow"). Only the
 * indexed copy is changed (BM25's text and what recall reads for times and facets); the stored text
 * stays as sent, and the encoder reads it as sent. Stateless, thread-safe.
 */
public final class InformalText {

    /** A letter three or more times in a row: "sooo", "yesss", "AAAAAAA". */
    private static final Pattern STRETCHED = Pattern.compile("(\\p{L})\\1{2,}");

    /** "2wks", "3hrs": a number written against its unit. */
    private static final Pattern NUMBER_UNIT =
            Pattern.compile("(?i)\\b(\\d+)(wks?|hrs?|mins?|yrs?|mos?|days?)\\b");

    private static final Map<String, String> WORDS =
            Map.ofEntries(
                    Map.entry("u", "you"),
                    Map.entry("ur", "your"),
                    Map.entry("pls", "please"),
                    Map.entry("plz", "please"),
                    Map.entry("thx", "thanks"),
                    Map.entry("bc", "because"),
                    Map.entry("cuz", "because"),
                    Map.entry("coz", "because"),
                    Map.entry("tmrw", "tomorrow"),
                    Map.entry("tmr", "tomorrow"),
                    Map.entry("tmw", "tomorrow"),
                    Map.entry("yday", "yesterday"),
                    Map.entry("yest", "yesterday"),
                    Map.entry("wk", "week"),
                    Map.entry("wks", "weeks"),
                    Map.entry("wknd", "weekend"),
                    Map.entry("hr", "hour"),
                    Map.entry("hrs", "hours"),
                    Map.entry("min", "minute"),
                    Map.entry("mins", "minutes"),
                    Map.entry("yr", "year"),
                    Map.entry("yrs", "years"),
                    Map.entry("bday", "birthday"),
                    Map.entry("gf", "girlfriend"),
                    Map.entry("bf", "boyfriend"),
                    Map.entry("fav", "favourite"),
                    Map.entry("fave", "favourite"),
                    Map.entry("pic", "picture"),
                    Map.entry("pics", "pictures"),
                    Map.entry("vid", "video"),
                    Map.entry("vids", "videos"),
                    Map.entry("convo", "conversation"),
                    Map.entry("appt", "appointment"),
                    Map.entry("uni", "university"),
                    Map.entry("b4", "before"),
                    Map.entry("gr8", "great"),
                    Map.entry("idk", "i don't know"),
                    Map.entry("tbh", "to be honest"),
                    Map.entry("omw", "on my way"),
                    Map.entry("rn", "right now"),
                    Map.entry("definately", "definitely"),
                    Map.entry("defintely", "definitely"),
                    Map.entry("tommorow", "tomorrow"),
                    Map.entry("tomorow", "tomorrow"),
                    Map.entry("tommorrow", "tomorrow"),
                    Map.entry("recieve", "receive"),
                    Map.entry("recieved", "received"),
                    Map.entry("wierd", "weird"),
                    Map.entry("thier", "their"),
                    Map.entry("alot", "a lot"),
                    Map.entry("untill", "until"),
                    Map.entry("seperate", "separate"),
                    Map.entry("beleive", "believe"),
                    Map.entry("freind", "friend"),
                    Map.entry("freinds", "friends"),
                    Map.entry("becuase", "because"),
                    Map.entry("realy", "really"),
                    Map.entry("finaly", "finally"),
                    Map.entry("occured", "occurred"),
                    Map.entry("begining", "beginning"),
                    Map.entry("wich", "which"),
                    Map.entry("doesnt", "doesn't"),
                    Map.entry("dont", "don't"),
                    Map.entry("didnt", "didn't"),
                    Map.entry("cant", "can't"),
                    Map.entry("wont", "won't"),
                    Map.entry("im", "i'm"),
                    Map.entry("ive", "i've"));

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    private InformalText() {}

    /** The matching copy of {@code text}; {@code text} itself when nothing changes. */
    public static String normalize(String text) {
        String s = STRETCHED.matcher(text).replaceAll("$1");
        s = NUMBER_UNIT.matcher(s).replaceAll("$1 $2");
        Matcher m = WORD.matcher(s);
        StringBuilder out = null;
        int last = 0;
        while (m.find()) {
            String replacement = WORDS.get(m.group().toLowerCase(Locale.ROOT));
            if (replacement == null) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 16);
            }
            out.append(s, last, m.start()).append(replacement);
            last = m.end();
        }
        if (out == null) {
            return s;
        }
        return out.append(s, last, s.length()).toString();
    }
}
