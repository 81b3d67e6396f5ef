package dev.cairn.graph;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deterministic rule-based extraction, in this order (earlier rules claim their characters):
 *
 * <ol>
 *   <li>{@code `backticked`} spans: a known name, else (one token, no URL, not a common word) an
 *       identifier (kind by shape); a URL leaves only its host to the later rules;
 *   <li>acronyms with their expansion, "Write-Ahead Log (WAL)": the initials of the expansion must
 *       spell the acronym; the expansion becomes a concept with the acronym as alias;
 *   <li>gazetteer phrases, longest first, up to {@link Gazetteer#maxPhraseWords()} words;
 *   <li>shapes: host names ({@code db-primary.prod.internal}), dotted identifiers, snake_case,
 *       service-like names ({@code payments-api}, {@code ledger-db}, {@code payments-queue}),
 *       CamelCase names (alerts only with evidence, see {@link TokenShapes#alertByEvidence}),
 *       acronyms ({@code TLS}; not common words, not inside fenced code), capitalised multi-word
 *       names ("Blue Green Deploy"; a sentence-initial word is dropped).
 * </ol>
 *
 * <p>Relations: two consecutive mentions joined by "depends on", "relies on", "requires", "needs",
 * "replaces", "supersedes", "is replaced by", "is part of", "belongs to", "governs" or
 * "contradicts" (optionally with "also", "now", "the", ...) give a relation of that type with
 * confidence {@link #TEXT_RELATION_CONFIDENCE}.
 *
 * <p>Thread-safe.
 */
final class RuleExtractor implements EntityExtractor {

    /** Confidence of a relation read from text: below a declared one (1.0), a guess from prose. */
    static final double TEXT_RELATION_CONFIDENCE = 0.8;

    private static final Pattern BACKTICK = Pattern.compile("`([^`\\n]{1,100})`");
    private static final Pattern EXPANSION =
            Pattern.compile(
                    "((?:[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*[ \\t]+){0,6}[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
                            + "[ \\t]*\\(([A-Z][A-Za-z0-9]{1,9})\\)");
    private static final Pattern TOKEN =
            Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9_.\\-]*[A-Za-z0-9])?");
    private static final Pattern URL =
            Pattern.compile("[A-Za-z][A-Za-z0-9+.\\-]*://[^\\s)>\\]\"'`]+");
    private static final Pattern FENCE = Pattern.compile("(?m)^[ \\t]*(```|~~~)");
    private static final Pattern ALERT_WORD = Pattern.compile("(?i)\\balert");
    private static final Pattern CAPITALISED = Pattern.compile("[A-Z][a-z]+");
    private static final Pattern RELATION =
            Pattern.compile(
                    "\\s*(?:(?:also|now|directly|always|still|only)\\s+)?"
                            + "(depends\\s+on|relies\\s+on|requires|needs|replaces|supersedes"
                            + "|is\\s+replaced\\s+by|is\\s+(?:a\\s+)?part\\s+of|belongs\\s+to"
                            + "|governs|contradicts)"
                            + "\\s+(?:(?:the|a|an)\\s+)?",
                    Pattern.CASE_INSENSITIVE);

    private static final Set<String> LEADING_STOPWORDS =
            Set.of(
                    "The", "A", "An", "If", "When", "Then", "This", "That", "These", "Those", "In",
                    "On", "For", "To", "After", "Before", "Once", "And", "Or", "But", "Do", "Use",
                    "Run", "Check", "Make", "See", "Open", "Set", "Step", "Never", "Always");

    private final Gazetteer gazetteer;
    private final boolean learn;

    RuleExtractor(Gazetteer gazetteer, boolean learn) {
        this.gazetteer = gazetteer;
        this.learn = learn;
    }

    @Override
    public Extraction extract(String text) {
        List<Mention> mentions = new ArrayList<>();
        BitSet claimed = new BitSet(text.length());
        urls(text, claimed);
        BitSet code = fencedCode(text);
        boolean saysAlert = ALERT_WORD.matcher(text).find();
        backticks(text, claimed, saysAlert, mentions);
        expansions(text, claimed, mentions);
        List<int[]> tokens = tokens(text);
        gazetteerPhrases(text, tokens, claimed, saysAlert, mentions);
        shapes(text, tokens, claimed, code, saysAlert, mentions);
        mentions.sort(Comparator.comparingInt(Mention::start));
        return new Extraction(mentions, relations(text, mentions));
    }

    /** Claims a URL's scheme, port, path and query, so only its host is left to the shapes. */
    private static void urls(String text, BitSet claimed) {
        Matcher m = URL.matcher(text);
        while (m.find()) {
            int hostStart = text.indexOf("://", m.start()) + 3;
            int hostEnd = hostStart;
            while (hostEnd < m.end() && "/:?#".indexOf(text.charAt(hostEnd)) < 0) {
                hostEnd++;
            }
            claimed.set(m.start(), hostStart);
            claimed.set(hostEnd, m.end());
        }
    }

    /**
     * The characters inside fenced code blocks. Command output there (column headers such as {@code
     * NAME NODE STATUS}) is no evidence for acronyms or capitalised names.
     */
    private static BitSet fencedCode(String text) {
        BitSet code = new BitSet(text.length());
        Matcher m = FENCE.matcher(text);
        while (m.find()) {
            int open = m.start();
            String fence = m.group(1);
            int close = m.find() && m.group(1).equals(fence) ? m.end() : text.length();
            code.set(open, close);
            if (close == text.length()) {
                break;
            }
        }
        return code;
    }

    private void backticks(String text, BitSet claimed, boolean saysAlert, List<Mention> out) {
        Matcher m = BACKTICK.matcher(text);
        while (m.find()) {
            String inner = m.group(1).strip();
            if (Canonical.key(inner).isEmpty() || claimed.get(m.start(1))) {
                continue;
            }
            int start = m.start(1) + m.group(1).indexOf(inner);
            int end = start + inner.length();
            Optional<Entity> known = gazetteer.lookup(inner);
            if (known.isPresent()) {
                Entity e = known.get();
                out.add(new Mention(e.id(), inner, e.kind(), start, end));
                claimed.set(m.start(), m.end());
                continue;
            }
            // A span with spaces is a command or an expression, not a name: its words are left to
            // the shapes ("oc get pods -n openshift-etcd" names openshift-etcd, not itself).
            if (inner.chars().anyMatch(Character::isWhitespace) || inner.contains("://")) {
                continue;
            }
            EntityKind kind =
                    TokenShapes.kind(inner)
                            .map(
                                    k ->
                                            TokenShapes.alertByEvidence(
                                                    text, start, end, inner, k, saysAlert))
                            .orElse(EntityKind.IDENTIFIER);
            if (add(text, start, end, kind, claimed, out)) {
                claimed.set(m.start(), m.end());
            }
        }
    }

    private void expansions(String text, BitSet claimed, List<Mention> out) {
        Matcher m = EXPANSION.matcher(text);
        while (m.find()) {
            String acronym = m.group(2);
            String[] words = m.group(1).strip().split("[ \\t\\-]+");
            // Take the shortest tail of the phrase whose initials spell the acronym.
            String upper = acronym.toUpperCase(Locale.ROOT);
            int first = -1;
            for (int from = words.length - 1; from >= 0; from--) {
                StringBuilder initials = new StringBuilder();
                for (int i = from; i < words.length; i++) {
                    initials.append(Character.toUpperCase(words[i].charAt(0)));
                }
                if (initials.toString().equals(upper)) {
                    first = from;
                    break;
                }
            }
            if (first < 0 || claimed.get(m.start(1), m.end(2)).cardinality() > 0) {
                continue;
            }
            int expansionStart = m.start(1);
            for (int i = 0; i < first; i++) {
                expansionStart = text.indexOf(words[i], expansionStart) + words[i].length();
            }
            while (expansionStart < m.end(1)
                    && !Character.isLetterOrDigit(text.charAt(expansionStart))) {
                expansionStart++;
            }
            String expansion = text.substring(expansionStart, m.end(1));
            Optional<Entity> known =
                    gazetteer.lookup(expansion).or(() -> gazetteer.lookup(acronym));
            Entity entity;
            if (known.isPresent()) {
                entity = known.get();
            } else if (learn) {
                entity = gazetteer.observe(expansion, EntityKind.CONCEPT);
            } else {
                entity =
                        new Entity(
                                Canonical.key(expansion),
                                expansion,
                                EntityKind.CONCEPT,
                                List.of(),
                                false);
            }
            if (learn) {
                gazetteer.addAlias(entity.id(), acronym);
            }
            out.add(new Mention(entity.id(), expansion, entity.kind(), expansionStart, m.end(1)));
            out.add(new Mention(entity.id(), acronym, entity.kind(), m.start(2), m.end(2)));
            claimed.set(expansionStart, m.end());
        }
    }

    private void gazetteerPhrases(
            String text, List<int[]> tokens, BitSet claimed, boolean saysAlert, List<Mention> out) {
        int maxWords = gazetteer.maxPhraseWords();
        for (int i = 0; i < tokens.size(); i++) {
            int[] first = tokens.get(i);
            if (claimed.get(first[0])) {
                continue;
            }
            int limit = Math.min(tokens.size(), i + maxWords);
            // Phrases stay within whitespace-separated tokens: no punctuation in between.
            int last = i;
            while (last + 1 < limit
                    && text.substring(tokens.get(last)[1], tokens.get(last + 1)[0]).isBlank()
                    && !claimed.get(tokens.get(last + 1)[0])
                    && !text.substring(tokens.get(last)[1], tokens.get(last + 1)[0])
                            .contains("\n")) {
                last++;
            }
            for (int j = last; j >= i; j--) {
                int start = first[0];
                int end = tokens.get(j)[1];
                Optional<Entity> entity = gazetteer.lookup(text.substring(start, end));
                if (entity.isPresent()) {
                    Entity e = entity.get();
                    String surface = text.substring(start, end);
                    if (learn
                            && !e.declared()
                            && TokenShapes.alertByEvidence(
                                            text, start, end, surface, e.kind(), saysAlert)
                                    == EntityKind.ALERT) {
                        e = gazetteer.observe(surface, EntityKind.ALERT);
                    }
                    out.add(new Mention(e.id(), surface, e.kind(), start, end));
                    claimed.set(start, end);
                    i = j;
                    break;
                }
            }
        }
    }

    private void shapes(
            String text,
            List<int[]> tokens,
            BitSet claimed,
            BitSet code,
            boolean saysAlert,
            List<Mention> out) {
        for (int i = 0; i < tokens.size(); i++) {
            int[] t = tokens.get(i);
            if (claimed.get(t[0], t[1]).cardinality() > 0) {
                continue;
            }
            String token = text.substring(t[0], t[1]);
            boolean inCode = code.get(t[0]);
            Optional<EntityKind> kind = TokenShapes.kind(token);
            if (kind.isPresent() && !(inCode && kind.get() == EntityKind.CONCEPT)) {
                EntityKind k =
                        TokenShapes.alertByEvidence(text, t[0], t[1], token, kind.get(), saysAlert);
                add(text, t[0], t[1], k, claimed, out);
                continue;
            }
            if (!inCode && CAPITALISED.matcher(token).matches()) {
                int j = i;
                while (j + 1 < tokens.size()
                        && " ".equals(text.substring(tokens.get(j)[1], tokens.get(j + 1)[0]))
                        && CAPITALISED
                                .matcher(text.substring(tokens.get(j + 1)[0], tokens.get(j + 1)[1]))
                                .matches()
                        && !claimed.get(tokens.get(j + 1)[0])
                        && j - i < 4) {
                    j++;
                }
                int from = i;
                while (from <= j
                        && (LEADING_STOPWORDS.contains(
                                        text.substring(tokens.get(from)[0], tokens.get(from)[1]))
                                || (from == i && sentenceInitial(text, t[0])))) {
                    from++;
                }
                if (j - from >= 1
                        && !(CommonWords.allCommon(
                                        text.substring(tokens.get(from)[0], tokens.get(j)[1]))
                                && titleLine(text, tokens.get(from)[0], tokens.get(j)[1]))) {
                    add(
                            text,
                            tokens.get(from)[0],
                            tokens.get(j)[1],
                            EntityKind.CONCEPT,
                            claimed,
                            out);
                }
                i = j;
            }
        }
    }

    /**
     * Adds a mention of a known name, or of a new one unless it is a common word ({@link
     * CommonWords}); claims its characters when it adds one.
     *
     * @return whether a mention was added
     */
    private boolean add(
            String text, int start, int end, EntityKind kind, BitSet claimed, List<Mention> out) {
        String surface = text.substring(start, end);
        String key = Canonical.key(surface);
        if (key.isEmpty()) {
            return false;
        }
        Optional<Entity> known = gazetteer.lookupKey(key);
        Entity entity;
        if (known.isPresent()) {
            entity = known.get();
            if (learn && kind == EntityKind.ALERT && entity.kind() != EntityKind.ALERT) {
                entity = gazetteer.observe(surface, kind);
            }
        } else if (CommonWords.isCommon(key)) {
            return false;
        } else if (learn) {
            entity = gazetteer.observe(surface, kind);
        } else {
            entity = new Entity(key, surface, kind, List.of(), false);
        }
        out.add(new Mention(entity.id(), surface, entity.kind(), start, end));
        claimed.set(start, end);
        return true;
    }

    /**
     * Whether a phrase stands on a heading line or alone on its line, where every word is
     * capitalised anyway: "Check Health" there is a description, while "restart Order Service now"
     * capitalises the name in the middle of a sentence.
     */
    private static boolean titleLine(String text, int start, int end) {
        int lineStart = text.lastIndexOf('\n', start - 1) + 1;
        int lineEnd = text.indexOf('\n', end);
        String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd).strip();
        return line.startsWith("#")
                || line.replaceAll("^[-*>|0-9.)\\s]+|[:.|*\\s]+$", "")
                        .equals(text.substring(start, end));
    }

    private static boolean sentenceInitial(String text, int offset) {
        for (int k = offset - 1; k >= 0; k--) {
            char c = text.charAt(k);
            if (c == '\n') {
                return true;
            }
            if (!Character.isWhitespace(c)) {
                return c == '.'
                        || c == '!'
                        || c == '?'
                        || c == ':'
                        || c == '#'
                        || c == '-'
                        || c == '*'
                        || c == '>'
                        || Character.isDigit(c);
            }
        }
        return true;
    }

    private static List<int[]> tokens(String text) {
        List<int[]> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            tokens.add(new int[] {m.start(), m.end()});
        }
        return tokens;
    }

    private static List<Relation> relations(String text, List<Mention> mentions) {
        List<Relation> relations = new ArrayList<>();
        for (int i = 0; i + 1 < mentions.size(); i++) {
            Mention a = mentions.get(i);
            Mention b = mentions.get(i + 1);
            if (b.start() < a.end() || a.entityId().equals(b.entityId())) {
                continue;
            }
            Matcher m = RELATION.matcher(text.substring(a.end(), b.start()));
            if (!m.matches()) {
                continue;
            }
            String verb = m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            NodeRef from = new NodeRef(NodeKind.ENTITY, a.entityId());
            NodeRef to = new NodeRef(NodeKind.ENTITY, b.entityId());
            RelationType type;
            switch (verb) {
                case "depends on", "relies on", "requires", "needs" ->
                        type = RelationType.DEPENDS_ON;
                case "replaces", "supersedes" -> type = RelationType.SUPERSEDES;
                case "is replaced by" -> {
                    type = RelationType.SUPERSEDES;
                    NodeRef swap = from;
                    from = to;
                    to = swap;
                }
                case "governs" -> type = RelationType.GOVERNS;
                case "contradicts" -> type = RelationType.CONTRADICTS;
                default -> type = RelationType.PART_OF;
            }
            relations.add(new Relation(from, to, type, TEXT_RELATION_CONFIDENCE));
        }
        return relations;
    }
}
