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
 *   <li>{@code `backticked`} spans: a known name, else an identifier (kind by shape);
 *   <li>acronyms with their expansion, "Write-Ahead Log (WAL)": the initials of the expansion must
 *       spell the acronym; the expansion becomes a concept with the acronym as alias;
 *   <li>gazetteer phrases, longest first, up to {@link Gazetteer#maxPhraseWords()} words;
 *   <li>shapes: host names ({@code db-primary.prod.internal}), dotted identifiers, snake_case,
 *       service-like names ({@code payments-api}, {@code ledger-db}, {@code payments-queue}),
 *       CamelCase alert names ({@code KubePodCrashLooping}), acronyms ({@code TLS}), capitalised
 *       multi-word names ("Blue Green Deploy"; a sentence-initial word is dropped).
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
    private static final Pattern HOST =
            Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*(?:\\.[a-z0-9]+(?:-[a-z0-9]+)*)+");
    private static final Pattern DOTTED =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)+");
    private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z0-9]+)+");
    private static final Pattern HYPHENATED = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z0-9]+)+");
    private static final Pattern CAMEL = Pattern.compile("[A-Z][a-z0-9]+(?:[A-Z]+[a-z0-9]*){1,}");
    private static final Pattern ACRONYM = Pattern.compile("[A-Z][A-Z0-9]{1,7}");
    private static final Pattern CAPITALISED = Pattern.compile("[A-Z][a-z]+");
    private static final Pattern RELATION =
            Pattern.compile(
                    "\\s*(?:(?:also|now|directly|always|still|only)\\s+)?"
                            + "(depends\\s+on|relies\\s+on|requires|needs|replaces|supersedes"
                            + "|is\\s+replaced\\s+by|is\\s+(?:a\\s+)?part\\s+of|belongs\\s+to"
                            + "|governs|contradicts)"
                            + "\\s+(?:(?:the|a|an)\\s+)?",
                    Pattern.CASE_INSENSITIVE);

    private static final Set<String> HOST_SUFFIXES =
            Set.of(
                    "internal",
                    "local",
                    "lan",
                    "com",
                    "net",
                    "org",
                    "io",
                    "dev",
                    "cloud",
                    "svc",
                    "cluster",
                    "corp",
                    "prod",
                    "example",
                    "intra");
    private static final Set<String> SERVICE_SUFFIXES =
            Set.of(
                    "api",
                    "svc",
                    "service",
                    "worker",
                    "gateway",
                    "web",
                    "app",
                    "proxy",
                    "server",
                    "cron",
                    "job",
                    "frontend",
                    "backend",
                    "ui");
    private static final Set<String> DATABASE_SUFFIXES =
            Set.of("db", "database", "pg", "sql", "store", "cache", "redis", "replica");
    private static final Set<String> QUEUE_SUFFIXES =
            Set.of("queue", "topic", "stream", "bus", "kafka", "dlq");
    private static final Set<String> COMPONENT_SUFFIXES =
            Set.of("cluster", "storage", "bucket", "lb", "balancer", "node", "index", "pool");
    private static final Set<String> NOT_ACRONYMS =
            Set.of("OK", "TODO", "NOTE", "AND", "OR", "IF", "THE", "NOT", "NO", "YES", "FAQ", "I");
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
        backticks(text, claimed, mentions);
        expansions(text, claimed, mentions);
        List<int[]> tokens = tokens(text);
        gazetteerPhrases(text, tokens, claimed, mentions);
        shapes(text, tokens, claimed, mentions);
        mentions.sort(Comparator.comparingInt(Mention::start));
        return new Extraction(mentions, relations(text, mentions));
    }

    private void backticks(String text, BitSet claimed, List<Mention> out) {
        Matcher m = BACKTICK.matcher(text);
        while (m.find()) {
            String inner = m.group(1).strip();
            if (Canonical.key(inner).isEmpty()) {
                continue;
            }
            EntityKind kind = shapeKind(inner).orElse(EntityKind.IDENTIFIER);
            add(text, m.start(1), m.end(1), kind, claimed, out);
            claimed.set(m.start(), m.end());
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
            String text, List<int[]> tokens, BitSet claimed, List<Mention> out) {
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
                    out.add(new Mention(e.id(), text.substring(start, end), e.kind(), start, end));
                    claimed.set(start, end);
                    i = j;
                    break;
                }
            }
        }
    }

    private void shapes(String text, List<int[]> tokens, BitSet claimed, List<Mention> out) {
        for (int i = 0; i < tokens.size(); i++) {
            int[] t = tokens.get(i);
            if (claimed.get(t[0], t[1]).cardinality() > 0) {
                continue;
            }
            String token = text.substring(t[0], t[1]);
            Optional<EntityKind> kind = shapeKind(token);
            if (kind.isPresent()) {
                add(text, t[0], t[1], kind.get(), claimed, out);
                continue;
            }
            if (CAPITALISED.matcher(token).matches()) {
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
                if (j - from >= 1) {
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

    private static Optional<EntityKind> shapeKind(String token) {
        if (HOST.matcher(token).matches()) {
            String last = token.substring(token.lastIndexOf('.') + 1);
            if (HOST_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.HOST);
            }
        }
        if (DOTTED.matcher(token).matches() || SNAKE.matcher(token).matches()) {
            return Optional.of(EntityKind.IDENTIFIER);
        }
        if (HYPHENATED.matcher(token).matches()) {
            String last = token.substring(token.lastIndexOf('-') + 1);
            if (SERVICE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.SERVICE);
            }
            if (DATABASE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.DATABASE);
            }
            if (QUEUE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.QUEUE);
            }
            if (COMPONENT_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.COMPONENT);
            }
            return Optional.empty();
        }
        if (CAMEL.matcher(token).matches()) {
            return Optional.of(EntityKind.ALERT);
        }
        if (ACRONYM.matcher(token).matches() && !NOT_ACRONYMS.contains(token)) {
            return Optional.of(EntityKind.CONCEPT);
        }
        return Optional.empty();
    }

    private void add(
            String text, int start, int end, EntityKind kind, BitSet claimed, List<Mention> out) {
        String surface = text.substring(start, end);
        String key = Canonical.key(surface);
        if (key.isEmpty()) {
            return;
        }
        Optional<Entity> known = gazetteer.lookupKey(key);
        Entity entity;
        if (known.isPresent()) {
            entity = known.get();
        } else if (learn) {
            entity = gazetteer.observe(surface, kind);
        } else {
            entity = new Entity(key, surface, kind, List.of(), false);
        }
        out.add(new Mention(entity.id(), surface, entity.kind(), start, end));
        claimed.set(start, end);
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
