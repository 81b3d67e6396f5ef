package dev.cairn.memory;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names the people of one namespace go by, and which of them a query names. A person is a
 * memory's {@code userId}; their names are
 *
 * <ul>
 *   <li>the words of the user id itself ({@link Via#LABEL}: "tomasz_k" is Tomasz, "Faheem R." is
 *       Faheem),
 *   <li>names their memories declare with a tag {@code alias:<name>} ({@link Via#DECLARED}),
 *   <li>names the others call them in conversation ({@link Via#ADDRESSED}: "thanks Tommy!" said to
 *       tomasz_k in a two-person session) and names they give themselves ({@link Via#INTRODUCED}),
 *       learned from {@link NameMentions} once a name was said of one person at least {@link
 *       #MIN_MENTIONS} times and at least twice as often as of anyone else.
 * </ul>
 *
 * <p>A query word names a person when it is one of their names, starts one or is started by one
 * ("Tom", "Bea", "Kat" for Tomasz, Beatriz, Katie), or is spelled like one: the same consonant
 * skeleton (Faheem / Fahim, Aisling / Ashling, Dmitry / Dmitri) or one edit apart for names of five
 * letters or more (Jonas / Joonas). An exact match beats a prefix, which beats a spelling; only a
 * person's own label or declared names match words that are also common English words. Immutable,
 * thread-safe; built by {@link Builder}.
 */
public final class PersonNames {

    /** Times a name must be said of one person before it counts as theirs. */
    public static final int MIN_MENTIONS = 2;

    /** Tag prefix by which a memory declares another name of its user. */
    public static final String ALIAS_TAG = "alias:";

    /** Where a name of a person comes from. */
    public enum Via {
        LABEL,
        DECLARED,
        ADDRESSED,
        INTRODUCED
    }

    /** How a query word matched a name. */
    public enum Match {
        EXACT,
        PREFIX,
        SPELLING
    }

    /**
     * A person a query names: the query word, the name it matched, where that name comes from and
     * how it matched.
     */
    public record NamedPerson(String userId, String asked, String name, Via via, Match match) {
        public NamedPerson {
            Objects.requireNonNull(userId, "userId");
            Objects.requireNonNull(asked, "asked");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(via, "via");
            Objects.requireNonNull(match, "match");
        }
    }

    private record Known(String userId, String name, Via via, String skeleton) {}

    private static final PersonNames NONE = new PersonNames(List.of());

    private static final Pattern QUERY_WORD = Pattern.compile("[\\p{L}][\\p{L}'’]*");

    private static final Pattern NOT_LETTER = Pattern.compile("[^\\p{L}]+");

    private final List<Known> names;

    private PersonNames(List<Known> names) {
        this.names = List.copyOf(names);
    }

    /**
     * The people {@code query} names, one entry per person (their best match), in the order of
     * their user ids.
     */
    public List<NamedPerson> named(String query) {
        if (names.isEmpty()) {
            return List.of();
        }
        Map<String, NamedPerson> best = new TreeMap<>();
        // a prefix or a spelling counts for a capitalised word only, unless the query has no
        // capitals at all: "art" in "What art does Mel make?" is no Arthur
        boolean caseless = query.equals(query.toLowerCase(Locale.ROOT));
        Matcher words = QUERY_WORD.matcher(query);
        while (words.find()) {
            String asked = words.group();
            String word = NameMentions.lower(asked);
            if (word.length() < 2) {
                continue;
            }
            boolean common =
                    CommonWords.contains(word)
                            || !(caseless || Character.isUpperCase(asked.codePointAt(0)));
            String skeleton = skeleton(word);
            List<NamedPerson> matches = new ArrayList<>();
            Match strongest = null;
            for (Known k : names) {
                Match m = match(word, common, skeleton, k);
                if (m == null || (strongest != null && m.compareTo(strongest) > 0)) {
                    continue;
                }
                if (strongest == null || m.compareTo(strongest) < 0) {
                    matches.clear();
                    strongest = m;
                }
                matches.add(new NamedPerson(k.userId(), asked, k.name(), k.via(), m));
            }
            for (NamedPerson p : matches) {
                best.merge(p.userId(), p, (a, b) -> b.match().compareTo(a.match()) < 0 ? b : a);
            }
        }
        return List.copyOf(best.values());
    }

    /**
     * {@code query} without the words that named {@code named} (and their possessive), or {@code
     * query} itself when nothing else would be left.
     */
    public static String without(String query, List<NamedPerson> named) {
        String rest = query;
        for (NamedPerson p : named) {
            rest =
                    rest.replaceAll(
                            "(?<![\\p{L}])" + Pattern.quote(p.asked()) + "(?:['’]s)?(?![\\p{L}])",
                            " ");
        }
        return rest.chars().anyMatch(Character::isLetterOrDigit) ? rest : query;
    }

    private static Match match(String word, boolean common, String skeleton, Known k) {
        boolean own = k.via() == Via.LABEL || k.via() == Via.DECLARED;
        if (word.equals(k.name())) {
            return own || !CommonWords.contains(word) ? Match.EXACT : null;
        }
        if (common) {
            return null;
        }
        String name = k.name();
        if (word.length() >= 3
                && name.length() >= 3
                && (name.startsWith(word) || word.startsWith(name))) {
            return Match.PREFIX;
        }
        if (word.length() >= 4 && name.length() >= 4) {
            // two consonants say little of a short name (Fame, Fum), enough of a longer one
            // (Faheem, Fahim)
            int least = word.length() >= 5 && name.length() >= 5 ? 2 : 3;
            if (skeleton.length() >= least && skeleton.equals(k.skeleton())) {
                return Match.SPELLING;
            }
            if (word.length() >= 5 && name.length() >= 5 && withinOneEdit(word, name)) {
                return Match.SPELLING;
            }
        }
        return null;
    }

    /**
     * A name's consonants as spelled: accents off, "ph" as "f", the first letter kept, then no
     * vowels, no "y" and no "h", doubled letters once. Faheem and Fahim are "fm", Aisling and
     * Ashling "slng" after the first letter.
     */
    static String skeleton(String name) {
        String s =
                Normalizer.normalize(name, Normalizer.Form.NFD)
                        .replaceAll("\\p{M}", "")
                        .toLowerCase(Locale.ROOT)
                        .replace("ph", "f")
                        .replaceAll("[^a-z]", "");
        if (s.isEmpty()) {
            return s;
        }
        StringBuilder out = new StringBuilder().append(s.charAt(0));
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("aeiouyh".indexOf(c) >= 0 || c == out.charAt(out.length() - 1)) {
                continue;
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Whether one insertion, deletion, substitution or swap of neighbours turns a into b. */
    static boolean withinOneEdit(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 1) {
            return false;
        }
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (a.length() == b.length()) {
            if (i == a.length()) {
                return true;
            }
            if (a.substring(i + 1).equals(b.substring(i + 1))) {
                return true;
            }
            return i + 1 < a.length()
                    && a.charAt(i) == b.charAt(i + 1)
                    && a.charAt(i + 1) == b.charAt(i)
                    && a.substring(i + 2).equals(b.substring(i + 2));
        }
        String longer = a.length() > b.length() ? a : b;
        String shorter = a.length() > b.length() ? b : a;
        return longer.substring(i + 1).equals(shorter.substring(i));
    }

    /** The names {@code memory} declares for its user with {@link #ALIAS_TAG} tags. */
    public static List<String> declared(Memory memory) {
        List<String> out = List.of(); // most memories declare none: nothing allocated
        for (String tag : memory.tags()) {
            if (tag.startsWith(ALIAS_TAG)) {
                if (out.isEmpty()) {
                    out = new ArrayList<>();
                }
                out.addAll(labelWords(tag.substring(ALIAS_TAG.length())));
            }
        }
        return out;
    }

    /** The words of a user id that may name its user: letters only, two or more of them. */
    static List<String> labelWords(String userId) {
        List<String> out = new ArrayList<>();
        for (String part : NOT_LETTER.split(userId.toLowerCase(Locale.ROOT))) {
            if (part.length() >= 2 && !out.contains(part)) {
                out.add(part);
            }
        }
        return out;
    }

    /**
     * Collects the memories of a namespace, then learns its people's names. Not thread-safe; one
     * builder per build.
     */
    public static final class Builder {

        private final Map<String, Map<String, Via>> own = new TreeMap<>();
        private final Map<String, Set<String>> sessionSpeakers = new HashMap<>();
        private final List<Said> said = new ArrayList<>();

        private record Said(
                String lineLabel, String userId, String session, NameMentions.Mention m) {}

        /**
         * Adds one memory: its user, its declared aliases, and the names its text gives ({@code
         * mentions}, from {@link NameMentions#of}); {@code session} is its conversation session, ""
         * when it is no conversation turn.
         */
        public Builder add(Memory memory, String session, List<NameMentions.Mention> mentions) {
            String user = memory.scope().userId();
            if (user.isEmpty()) {
                return this;
            }
            Map<String, Via> names = own.computeIfAbsent(user, Builder::labelNames);
            declared(memory).forEach(w -> names.putIfAbsent(w, Via.DECLARED));
            if (!session.isEmpty()) {
                sessionSpeakers.computeIfAbsent(session, s -> new HashSet<>(4)).add(user);
            }
            for (NameMentions.Mention m : mentions) {
                said.add(new Said(m.speaker(), user, session, m));
            }
            return this;
        }

        public PersonNames build() {
            if (own.isEmpty()) {
                return NONE;
            }
            Map<String, String> byLabel = new HashMap<>();
            own.keySet().forEach(u -> byLabel.putIfAbsent(u.toLowerCase(Locale.ROOT), u));
            // name -> person -> times said of them, and how
            Map<String, Map<String, Integer>> votes = new TreeMap<>();
            Map<String, Via> how = new HashMap<>();
            for (Said s : said) {
                String speaker =
                        s.lineLabel().isEmpty()
                                ? s.userId()
                                : byLabel.get(s.lineLabel().toLowerCase(Locale.ROOT));
                if (speaker == null) {
                    continue; // a line of someone who writes no memories here
                }
                String person;
                Via via;
                if (s.m().kind() == NameMentions.Kind.INTRODUCED) {
                    person = speaker;
                    via = Via.INTRODUCED;
                } else {
                    Set<String> present = sessionSpeakers.getOrDefault(s.session(), Set.of());
                    List<String> others = present.stream().filter(u -> !u.equals(speaker)).toList();
                    if (others.size() != 1) {
                        continue; // nobody, or several people, could be the one addressed
                    }
                    person = others.getFirst();
                    via = Via.ADDRESSED;
                }
                votes.computeIfAbsent(s.m().name(), n -> new HashMap<>())
                        .merge(person, 1, Integer::sum);
                how.putIfAbsent(s.m().name() + "\u0000" + person, via);
            }
            Set<String> labels = new TreeSet<>();
            own.values().forEach(n -> n.forEach((w, v) -> labels.add(w)));
            List<Known> known = new ArrayList<>();
            own.forEach((user, names) -> names.forEach((w, via) -> known.add(known(user, w, via))));
            votes.forEach(
                    (name, people) -> {
                        if (labels.contains(name)) {
                            return; // someone's own name already
                        }
                        var ranked =
                                people.entrySet().stream()
                                        .sorted(
                                                Map.Entry.<String, Integer>comparingByValue()
                                                        .reversed()
                                                        .thenComparing(Map.Entry.comparingByKey()))
                                        .toList();
                        int top = ranked.getFirst().getValue();
                        int second = ranked.size() > 1 ? ranked.get(1).getValue() : 0;
                        if (top >= MIN_MENTIONS && top >= 2 * second) {
                            String user = ranked.getFirst().getKey();
                            known.add(known(user, name, how.get(name + "\u0000" + user)));
                        }
                    });
            return new PersonNames(known);
        }

        /**
         * A user id's words as its user's names; "user-1" is not named by every "user": a common
         * word names only the user whose whole id it is ("Will").
         */
        private static Map<String, Via> labelNames(String user) {
            String whole = user.strip().toLowerCase(Locale.ROOT);
            Map<String, Via> names = new LinkedHashMap<>();
            labelWords(user).stream()
                    .filter(w -> w.equals(whole) || !CommonWords.contains(w))
                    .forEach(w -> names.put(w, Via.LABEL));
            return names;
        }

        private static Known known(String user, String name, Via via) {
            return new Known(user, name, via, skeleton(name));
        }
    }

    /** Every name of every person, for explanations and tests: user id -> name -> how. */
    public Map<String, Map<String, Via>> all() {
        Map<String, Map<String, Via>> out = new TreeMap<>();
        names.forEach(
                k -> out.computeIfAbsent(k.userId(), u -> new TreeMap<>()).put(k.name(), k.via()));
        return out;
    }
}
