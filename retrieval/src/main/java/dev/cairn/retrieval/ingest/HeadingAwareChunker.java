package dev.cairn.retrieval.ingest;

import dev.cairn.embeddings.TokenCounter;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** See {@link Chunker#headingAware}. Immutable and thread-safe if its counter is. */
final class HeadingAwareChunker implements Chunker {

    private static final Pattern HEADING =
            Pattern.compile("^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$");
    private static final Pattern CLOSING_HASHES = Pattern.compile("[ \t]+#+$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,}).*$");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?;:])\\s+");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final TokenCounter counter;
    private final ChunkingConfig config;

    HeadingAwareChunker(TokenCounter counter, ChunkingConfig config) {
        if (counter == null || config == null) {
            throw new IllegalArgumentException("illegal chunker: counter and config are required");
        }
        this.counter = counter;
        this.config = config;
    }

    @Override
    public List<ChunkDraft> chunk(ParsedDocument document) {
        List<Section> sections =
                document.format() == DocumentFormat.MARKDOWN
                        ? sections(document.body())
                        : List.of(
                                new Section(
                                        List.of(), paragraphs(document.body().lines().toList())));
        List<ChunkDraft> out = new ArrayList<>();
        for (Section s : sections) {
            packSection(s, out);
        }
        return out;
    }

    /** A heading path and its paragraphs. */
    private record Section(List<String> headingPath, List<String> paragraphs) {}

    /** A piece of text no longer than the budget; {@code joiner} goes before it in a chunk. */
    private record Piece(String text, String joiner) {}

    static List<Section> sections(String body) {
        List<Section> sections = new ArrayList<>();
        List<String> path = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        String fence = null;
        for (String line : body.lines().toList()) {
            if (fence != null) {
                lines.add(line);
                String s = line.strip();
                char fc = fence.charAt(0);
                if (s.length() >= fence.length() && s.chars().allMatch(c -> c == fc)) {
                    fence = null;
                }
                continue;
            }
            Matcher f = FENCE.matcher(line);
            if (f.matches()) {
                fence = f.group(1);
                lines.add(line);
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                addSection(sections, path, lines);
                lines = new ArrayList<>();
                int level = h.group(1).length();
                String text =
                        h.group(2) == null
                                ? ""
                                : CLOSING_HASHES.matcher(h.group(2)).replaceAll("").strip();
                while (!levels.isEmpty() && levels.getLast() >= level) {
                    levels.removeLast();
                    path.removeLast();
                }
                levels.add(level);
                path.add(text);
                continue;
            }
            lines.add(line);
        }
        addSection(sections, path, lines);
        return sections;
    }

    private static void addSection(List<Section> sections, List<String> path, List<String> lines) {
        List<String> paragraphs = paragraphs(lines);
        if (!paragraphs.isEmpty()) {
            sections.add(new Section(List.copyOf(path), paragraphs));
        }
    }

    /** Blank-line separated paragraphs; a code fence stays one paragraph. */
    static List<String> paragraphs(List<String> lines) {
        List<String> paragraphs = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        String fence = null;
        for (String line : lines) {
            if (fence == null) {
                Matcher f = FENCE.matcher(line);
                if (f.matches()) {
                    fence = f.group(1);
                } else if (line.isBlank()) {
                    flush(paragraphs, current);
                    continue;
                }
            } else {
                String s = line.strip();
                char fc = fence.charAt(0);
                if (s.length() >= fence.length() && s.chars().allMatch(c -> c == fc)) {
                    fence = null;
                }
            }
            if (!current.isEmpty()) {
                current.append('\n');
            }
            current.append(line.stripTrailing());
        }
        flush(paragraphs, current);
        return paragraphs;
    }

    private static void flush(List<String> paragraphs, StringBuilder current) {
        if (!current.toString().isBlank()) {
            paragraphs.add(current.toString().strip());
        }
        current.setLength(0);
    }

    private void packSection(Section section, List<ChunkDraft> out) {
        int max = config.maxTokens();
        // Pieces leave room for the overlap, so a piece always fits after it.
        int pieceBudget = max - config.overlapTokens();
        List<Piece> pieces = new ArrayList<>();
        for (String p : section.paragraphs()) {
            List<String> parts = split(p, pieceBudget);
            for (int i = 0; i < parts.size(); i++) {
                pieces.add(new Piece(parts.get(i), i == 0 ? "\n\n" : " "));
            }
        }
        StringBuilder current = new StringBuilder();
        for (Piece piece : pieces) {
            String candidate =
                    current.isEmpty() ? piece.text() : current + piece.joiner() + piece.text();
            if (counter.count(candidate) <= max) {
                current.setLength(0);
                current.append(candidate);
                continue;
            }
            String done = current.toString();
            emit(section, done, out);
            String overlap = overlapOf(done);
            String withOverlap =
                    overlap.isEmpty() ? piece.text() : overlap + piece.joiner() + piece.text();
            current.setLength(0);
            current.append(counter.count(withOverlap) <= max ? withOverlap : piece.text());
        }
        if (!current.isEmpty()) {
            emit(section, current.toString(), out);
        }
    }

    private void emit(Section section, String text, List<ChunkDraft> out) {
        out.add(
                ChunkDraft.unembedded(
                        out.size(), section.headingPath(), text, counter.count(text)));
    }

    /** Splits text over {@code budget} tokens by sentences, then by tokens. */
    private List<String> split(String paragraph, int budget) {
        if (counter.count(paragraph) <= budget) {
            return List.of(paragraph);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String sentence : SENTENCE_END.split(paragraph)) {
            if (sentence.isBlank()) {
                continue;
            }
            String candidate = current.isEmpty() ? sentence : current + " " + sentence;
            if (counter.count(candidate) <= budget) {
                current.setLength(0);
                current.append(candidate);
                continue;
            }
            if (!current.isEmpty()) {
                out.add(current.toString());
                current.setLength(0);
            }
            if (counter.count(sentence) <= budget) {
                current.append(sentence);
            } else {
                out.addAll(splitByTokens(sentence, budget));
            }
        }
        if (!current.isEmpty()) {
            out.add(current.toString());
        }
        return out;
    }

    private List<String> splitByTokens(String text, int budget) {
        List<String> out = new ArrayList<>();
        String rest = text.strip();
        while (!rest.isEmpty()) {
            String head = counter.truncate(rest, budget);
            if (head.isBlank()) {
                // A single token the counter cannot fit: take one code point to make progress.
                head = rest.substring(0, rest.offsetByCodePoints(0, 1));
            }
            // Prefer to cut at whitespace so words stay whole.
            if (head.length() < rest.length()
                    && !Character.isWhitespace(rest.charAt(head.length()))) {
                int ws = lastWhitespace(head);
                if (ws > 0) {
                    head = head.substring(0, ws);
                }
            }
            out.add(head.strip());
            rest = rest.substring(head.length()).strip();
        }
        return out;
    }

    private static int lastWhitespace(String s) {
        for (int i = s.length() - 1; i > 0; i--) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The shortest whole-word suffix of {@code text} with at most {@code overlapTokens}. */
    private String overlapOf(String text) {
        int budget = config.overlapTokens();
        if (budget == 0) {
            return "";
        }
        List<Integer> starts = new ArrayList<>();
        Matcher ws = WHITESPACE.matcher(text);
        while (ws.find()) {
            starts.add(ws.end());
        }
        // Binary search over word starts for the longest suffix within budget.
        int lo = 0;
        int hi = starts.size() - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (counter.count(text.substring(starts.get(mid))) <= budget) {
                best = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return best < 0 ? "" : text.substring(starts.get(best)).strip();
    }
}
