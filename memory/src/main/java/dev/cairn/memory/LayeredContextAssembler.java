package dev.cairn.memory;

import dev.cairn.embeddings.TokenCounter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Default {@link ContextAssembler}. A first pass counts each part of a line on its own and sums
 * (linear in the block, exact for tokenizers that split on whitespace first); the finished block is
 * counted whole, and if the sum was not exact a second pass counts every tentative block whole, so
 * the bound holds for any counter, additive or not. Thread-safe if the counter is.
 */
final class LayeredContextAssembler implements ContextAssembler {

    static final String ELLIPSIS = " …";
    private static final Pattern LINE_BREAKS = Pattern.compile("\\s*[\\r\\n]+\\s*");
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final TokenCounter counter;
    private final Config config;

    LayeredContextAssembler(TokenCounter counter, Config config) {
        this.counter = Objects.requireNonNull(counter, "counter");
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public AssembledContext assemble(List<ScoredMemory> memories, int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be >= 0");
        }
        AssembledContext fast = compose(memories, maxTokens, true);
        return fast != null ? fast : compose(memories, maxTokens, false);
    }

    /**
     * Composes the block. With {@code additive}, each part of a line (layer header, entry prefix,
     * content) is counted on its own and the block's count is the running sum (exact for tokenizers
     * that split on whitespace first, such as WordPiece, because the parts join at spaces and line
     * breaks); the whole block is counted once at the end, and null is returned when the sum was
     * wrong, so the caller recounts every step exactly.
     */
    private AssembledContext compose(List<ScoredMemory> memories, int maxTokens, boolean additive) {
        Map<Layer, List<ScoredMemory>> byLayer = new EnumMap<>(Layer.class);
        for (ScoredMemory m : memories) {
            byLayer.computeIfAbsent(m.memory().layer(), l -> new ArrayList<>()).add(m);
        }
        StringBuilder block = new StringBuilder();
        int blockTokens = 0;
        Map<Layer, List<String>> included = new EnumMap<>(Layer.class);
        List<String> truncated = new ArrayList<>();
        List<String> omitted = new ArrayList<>();
        for (Map.Entry<Layer, List<ScoredMemory>> e : byLayer.entrySet()) {
            List<ScoredMemory> entries = new ArrayList<>(e.getValue());
            entries.sort(ScoredMemory.ORDER);
            String header = (block.isEmpty() ? "" : "\n") + "## " + e.getKey().title() + "\n";
            boolean headerWritten = false;
            for (ScoredMemory sm : entries) {
                Memory m = sm.memory();
                String prefix = prefix(m);
                String content = oneLine(m.content().strip());
                boolean cut = false;
                if (counter.count(content) > config.maxEntryTokens()) {
                    content = counter.truncate(content, config.maxEntryTokens()).strip() + ELLIPSIS;
                    cut = true;
                }
                String pre = (headerWritten ? "" : header) + prefix;
                String lead = additive ? pre : block + pre;
                int budget = additive ? maxTokens - blockTokens : maxTokens;
                // additive: the parts are counted apart, each one the counter's cache has seen
                // before when the memory was recalled before (the id makes every whole line new)
                int preTokens =
                        additive
                                ? (headerWritten ? 0 : counter.count(header))
                                        + counter.count(prefix)
                                : 0;
                String line = null;
                if (additive
                        ? preTokens + counter.count(content) <= budget
                        : counter.count(lead + content) <= budget) {
                    line = content;
                } else {
                    line = budget <= 0 ? null : fitTruncated(lead, content, budget);
                    cut = line != null;
                }
                if (line == null) {
                    omitted.add(m.id());
                    continue;
                }
                if (additive) {
                    blockTokens += preTokens + counter.count(line);
                }
                if (!headerWritten) {
                    block.append(header);
                    headerWritten = true;
                }
                block.append(prefix).append(line).append('\n');
                included.computeIfAbsent(e.getKey(), l -> new ArrayList<>()).add(m.id());
                if (cut) {
                    truncated.add(m.id());
                }
            }
        }
        String text = block.toString().stripTrailing();
        // a counter additive at whitespace makes the running sum exact (the parts join at spaces
        // and line breaks), which spares counting the whole ~1,000-token block on every recall
        int tokens =
                text.isEmpty()
                        ? 0
                        : additive && counter.additiveAtWhitespace()
                                ? blockTokens
                                : counter.count(text);
        if (additive && (tokens > maxTokens || tokens != blockTokens)) {
            return null;
        }
        if (tokens > maxTokens) {
            // Unreachable with a sane counter (stripping cannot add tokens); fail safe.
            return new AssembledContext("", 0, Map.of(), List.of(), ids(memories));
        }
        return new AssembledContext(text, tokens, included, truncated, omitted);
    }

    /**
     * Longest truncation of {@code content} with >= minEntryTokens that fits, or null. For a
     * counter additive at whitespace the lead, the cut content and the ellipsis add up, so the
     * longest cut that fits is known before cutting: one cut, checked, instead of a search of a
     * dozen cuts (each encoding the whole content). The search remains for any other counter, or a
     * check that fails.
     */
    private String fitTruncated(String lead, String content, int maxTokens) {
        if (counter.additiveAtWhitespace()) {
            int room = maxTokens - counter.count(lead) - counter.count(ELLIPSIS.strip());
            if (room < config.minEntryTokens()) {
                return null;
            }
            String candidate = counter.truncate(content, room).strip() + ELLIPSIS;
            if (counter.count(lead + candidate) <= maxTokens) {
                return candidate;
            }
        }
        int lo = config.minEntryTokens();
        int hi = counter.count(content) - 1;
        String best = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            String candidate = counter.truncate(content, mid).strip() + ELLIPSIS;
            if (counter.count(lead + candidate) <= maxTokens) {
                best = candidate;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return best;
    }

    /**
     * {@code text} with each line break and the blanks around it as one space; most memories have
     * none, and then the text is returned without running the pattern over it.
     */
    private static String oneLine(String text) {
        if (text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
            return text;
        }
        return LINE_BREAKS.matcher(text).replaceAll(" ");
    }

    private static String prefix(Memory m) {
        return "- [" + m.type() + " " + DATE.format(m.createdAt()) + " " + m.id() + "] ";
    }

    private static List<String> ids(List<ScoredMemory> memories) {
        return memories.stream().map(ScoredMemory::id).toList();
    }
}
