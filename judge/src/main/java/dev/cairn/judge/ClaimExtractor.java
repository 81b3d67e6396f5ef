package dev.cairn.judge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits an answer into claims and resolves their citations against the evidence.
 *
 * <p>Units: each list item ({@code -}, {@code *}, {@code +}, {@code •}, {@code 1.}, {@code 1)},
 * {@code a)}) and each paragraph; units are split into {@link Sentences sentences}. Not claims:
 * Markdown headings, sentences ending in {@code ?} or {@code :}, sentences without a content word
 * and {@link #isHedge hedges} ("I could not find ..."), which assert nothing.
 *
 * <p>Citations: {@code [1]}, {@code [1, 3]}, {@code [1-3]} (1-based indices into the evidence),
 * {@code [chunk-id]} (an evidence id, exact or case-insensitive) and {@code (source: Title)} or
 * {@code (sources: A; B)} (an evidence title, case-insensitive, or id). A bracket is a citation
 * when each of its comma- or semicolon-separated items is a number or a single token; items that
 * resolve to no evidence are kept as unresolved citations. Markdown links {@code [text](url)} are
 * not citations. Stateless and thread-safe.
 */
final class ClaimExtractor {

    private static final Pattern LIST_ITEM =
            Pattern.compile(
                    "^\\s*(?:[-*+•]|\\d{1,3}[.)]|[a-zA-Z][.)]|(?i:step)\\s+\\d+[.:)]?)\\s+");
    private static final Pattern HEADING = Pattern.compile("^\\s*#{1,6}\\s");
    private static final Pattern BRACKET = Pattern.compile("\\[([^\\[\\]\\n]{1,200})\\](?!\\()");
    private static final Pattern SOURCE =
            Pattern.compile(
                    "\\((?:sources?|src|ref)\\s*:\\s*([^()]{1,300})\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern INDEX = Pattern.compile("\\d{1,4}");
    private static final Pattern RANGE = Pattern.compile("(\\d{1,4})\\s*[-–]\\s*(\\d{1,4})");
    private static final Pattern ID_TOKEN = Pattern.compile("[\\p{L}\\p{N}_.:#/@-]{1,128}");

    /** Deferral and hedging phrases: a sentence with one asserts nothing. */
    static final Pattern HEDGE =
            Pattern.compile(
                    "\\b(?:i|we)\\s*(?:do\\s+not|don't|cannot|can't|could\\s+not|couldn't|am\\s+not|'m\\s+not|are\\s+not|was\\s+unable\\s+to|were\\s+unable\\s+to|am\\s+unable\\s+to)"
                            + "\\s+(?:know|find|sure|certain|confirm|determine|answer|have|tell|say|verify)"
                            + "|\\b(?:not|insufficient|no)\\s+(?:enough\\s+)?(?:relevant\\s+)?(?:information|evidence|data|context)"
                            + "|\\bcannot\\s+be\\s+(?:determined|confirmed|answered)"
                            + "|\\b(?:the\\s+)?(?:evidence|sources?|documents?|context|documentation)\\s+(?:does|do)\\s+not\\s+(?:say|mention|cover|contain|specify|state|address)"
                            + "|\\bunclear\\s+from\\b"
                            + "|\\bplease\\s+(?:consult|check\\s+with|contact|ask)\\b",
                    Pattern.CASE_INSENSITIVE);

    private ClaimExtractor() {}

    /** Claims of {@code answer}, in answer order. */
    static List<Claim> extract(String answer, List<Evidence> evidence) {
        List<Claim> claims = new ArrayList<>();
        for (String unit : units(answer)) {
            for (String sentence : Sentences.split(unit)) {
                Claim claim = parse(sentence, evidence);
                if (isClaim(claim.text())) {
                    claims.add(claim);
                }
            }
        }
        return claims;
    }

    /** Whether the text contains deferral or hedging phrasing. */
    static boolean isHedge(String text) {
        return HEDGE.matcher(text).find();
    }

    /** Whether the answer looks procedural: a numbered list or imperative steps. */
    static boolean isProcedural(String answer) {
        int numbered = 0;
        int imperative = 0;
        for (String line : answer.split("\\R")) {
            if (line.matches("^\\s*(?:\\d{1,3}[.)]|(?i:step)\\s+\\d+[.:)]?)\\s+.*")) {
                numbered++;
            }
        }
        for (String unit : units(answer)) {
            for (String sentence : Sentences.split(unit)) {
                List<String> tokens = Text.tokens(sentence);
                if (!tokens.isEmpty() && IMPERATIVES.contains(tokens.getFirst())) {
                    imperative++;
                }
            }
        }
        return numbered >= 2 || imperative >= 2;
    }

    /** Verbs that open an instruction ("Restart the service."). */
    static final Set<String> IMPERATIVES =
            Set.of(
                    "run",
                    "restart",
                    "start",
                    "stop",
                    "open",
                    "close",
                    "click",
                    "select",
                    "set",
                    "configure",
                    "install",
                    "uninstall",
                    "update",
                    "upgrade",
                    "download",
                    "enable",
                    "disable",
                    "create",
                    "delete",
                    "remove",
                    "add",
                    "edit",
                    "change",
                    "check",
                    "verify",
                    "ensure",
                    "make",
                    "go",
                    "navigate",
                    "type",
                    "enter",
                    "press",
                    "copy",
                    "paste",
                    "move",
                    "rename",
                    "deploy",
                    "rollback",
                    "roll",
                    "scale",
                    "drain",
                    "reboot",
                    "log",
                    "login",
                    "sign",
                    "wait",
                    "confirm",
                    "apply",
                    "export",
                    "import",
                    "execute",
                    "use",
                    "call",
                    "send",
                    "rotate",
                    "revoke",
                    "reset",
                    "back",
                    "mount",
                    "unmount",
                    "kill",
                    "clear",
                    "flush",
                    "rebuild",
                    "reindex",
                    "first",
                    "then",
                    "next",
                    "finally");

    private static boolean isClaim(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.endsWith("?") || t.endsWith(":") || isHedge(t)) {
            return false;
        }
        for (String token : Text.tokens(t)) {
            if (Text.isContent(token)) {
                return true;
            }
        }
        return false;
    }

    /** List items and paragraphs; list markers removed, headings dropped. */
    static List<String> units(String answer) {
        List<String> units = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : answer.split("\\R")) {
            if (line.isBlank() || HEADING.matcher(line).find()) {
                flush(units, current);
                continue;
            }
            Matcher item = LIST_ITEM.matcher(line);
            if (item.find()) {
                flush(units, current);
                current.append(line.substring(item.end()));
            } else {
                if (!current.isEmpty()) {
                    current.append(' ');
                }
                current.append(line.strip());
            }
        }
        flush(units, current);
        return units;
    }

    private static void flush(List<String> units, StringBuilder current) {
        if (!current.toString().isBlank()) {
            units.add(current.toString().strip());
        }
        current.setLength(0);
    }

    /** Finds and strips the citations of one sentence. */
    static Claim parse(String sentence, List<Evidence> evidence) {
        Set<Integer> cited = new LinkedHashSet<>();
        List<String> unresolved = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int last = 0;
        Matcher b = BRACKET.matcher(sentence);
        while (b.find()) {
            if (bracketCitation(b.group(1), evidence, cited, unresolved)) {
                text.append(sentence, last, b.start());
                last = b.end();
            }
        }
        text.append(sentence.substring(last));
        String withoutBrackets = text.toString();
        text.setLength(0);
        last = 0;
        Matcher s = SOURCE.matcher(withoutBrackets);
        while (s.find()) {
            for (String item : s.group(1).split(";")) {
                resolveTitle(
                        item.strip().replaceFirst("(?i)^(?:sources?|src|ref)\\s*:\\s*", ""),
                        evidence,
                        cited,
                        unresolved);
            }
            text.append(withoutBrackets, last, s.start());
            last = s.end();
        }
        text.append(withoutBrackets.substring(last));
        String clean =
                text.toString().replaceAll("\\s+", " ").replaceAll("\\s+([.,;:!?])", "$1").strip();
        return new Claim(clean, new ArrayList<>(cited), unresolved);
    }

    private static boolean bracketCitation(
            String content, List<Evidence> evidence, Set<Integer> cited, List<String> unresolved) {
        String[] items = content.split("[,;]");
        for (String raw : items) {
            String item = raw.strip();
            if (!(INDEX.matcher(item).matches()
                    || RANGE.matcher(item).matches()
                    || (ID_TOKEN.matcher(item).matches() && !item.isEmpty()))) {
                return false; // prose in brackets, e.g. "[see below]"
            }
            if (item.length() == 1
                    && Character.isLetter(item.charAt(0))
                    && findId(item, evidence) < 0) {
                return false; // a task-list box, "[x]"
            }
        }
        for (String raw : items) {
            String item = raw.strip();
            Matcher range = RANGE.matcher(item);
            if (INDEX.matcher(item).matches() && findId(item, evidence) < 0) {
                addIndex(Integer.parseInt(item), item, evidence, cited, unresolved);
            } else if (range.matches() && findId(item, evidence) < 0) {
                int from = Integer.parseInt(range.group(1));
                int to = Integer.parseInt(range.group(2));
                if (from > to || to - from > evidence.size()) {
                    unresolved.add(item);
                } else {
                    for (int k = from; k <= to; k++) {
                        addIndex(k, item, evidence, cited, unresolved);
                    }
                }
            } else {
                int idx = findId(item, evidence);
                if (idx >= 0) {
                    cited.add(idx);
                } else {
                    unresolved.add(item);
                }
            }
        }
        return true;
    }

    private static void addIndex(
            int oneBased,
            String item,
            List<Evidence> evidence,
            Set<Integer> cited,
            List<String> unresolved) {
        if (oneBased >= 1 && oneBased <= evidence.size()) {
            cited.add(oneBased - 1);
        } else {
            unresolved.add(item);
        }
    }

    private static int findId(String item, List<Evidence> evidence) {
        for (int k = 0; k < evidence.size(); k++) {
            if (evidence.get(k).id().equals(item)) {
                return k;
            }
        }
        for (int k = 0; k < evidence.size(); k++) {
            if (evidence.get(k).id().equalsIgnoreCase(item)) {
                return k;
            }
        }
        return -1;
    }

    private static void resolveTitle(
            String item, List<Evidence> evidence, Set<Integer> cited, List<String> unresolved) {
        String wanted = normaliseTitle(item);
        for (int k = 0; k < evidence.size(); k++) {
            if (!evidence.get(k).title().isBlank()
                    && normaliseTitle(evidence.get(k).title()).equals(wanted)) {
                cited.add(k);
                return;
            }
        }
        int idx = findId(item, evidence);
        if (idx >= 0) {
            cited.add(idx);
        } else {
            unresolved.add(item);
        }
    }

    private static String normaliseTitle(String title) {
        return title.strip()
                .replaceAll("^[\"'“”‘’]+|[\"'“”‘’.]+$", "")
                .replaceAll("\\s+", " ")
                .toLowerCase(Locale.ROOT);
    }
}
