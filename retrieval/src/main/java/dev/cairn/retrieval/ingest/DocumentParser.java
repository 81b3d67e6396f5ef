package dev.cairn.retrieval.ingest;

import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.DocumentFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Parses Markdown (with optional YAML front matter, API.md) and plain text into {@link
 * ParsedDocument}s. Stateless and thread-safe.
 *
 * <p>Front matter is a block at the very top of a Markdown file between a {@code ---} line and a
 * closing {@code ---} (or {@code ...}) line. Its scalars are kept as written (no YAML type
 * coercion, so {@code 2024-01-02} stays that string). Known keys: {@code id, title, authority,
 * tags, source, entities} and the relation types of {@link RelationType}; any other key is kept in
 * {@code metadata} as a string (collections in YAML flow style). Every error is an {@link
 * IllegalArgumentException} whose message names the 1-based line in the file.
 */
public final class DocumentParser {

    /** Longest front matter block accepted, in characters. */
    public static final int MAX_FRONT_MATTER_CHARS = 64 * 1024;

    private static final Pattern FENCE_OPEN = Pattern.compile("^ {0,3}(`{3,}|~{3,}).*$");
    private static final Pattern H1 = Pattern.compile("^ {0,3}# +(.*?)[ \t]*#*[ \t]*$");

    private DocumentParser() {}

    /** Reads a file; {@code .md} and {@code .markdown} are Markdown, anything else plain text. */
    public static ParsedDocument parse(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        String name = file.getFileName().toString();
        return parse(bytes, name);
    }

    /** Parses bytes that must be UTF-8 text; the file name picks the format and fallbacks. */
    public static ParsedDocument parse(byte[] content, String fileName) {
        return parse(content, fileName, idFrom(stem(fileName)));
    }

    /**
     * Reads a file whose id, unless its front matter declares one, is {@code fallbackId} (e.g.
     * derived from its path in a folder, so two {@code README.md} stay two documents).
     */
    public static ParsedDocument parse(Path file, String fallbackId) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return parse(bytes, file.getFileName().toString(), fallbackId);
    }

    private static ParsedDocument parse(byte[] content, String fileName, String fallbackId) {
        String text = TextChecks.decodeUtf8(content, fileName);
        return isMarkdown(fileName)
                ? parseMarkdown(text, fileName, fallbackId)
                : parseText(text, fileName, fallbackId);
    }

    static boolean isMarkdown(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(".md") || lower.endsWith(".markdown");
    }

    /** Plain text: id and title from the file name, the whole text as body. */
    public static ParsedDocument parseText(String text, String fileName) {
        return parseText(text, fileName, idFrom(stem(fileName)));
    }

    private static ParsedDocument parseText(String text, String fileName, String fallbackId) {
        TextChecks.requireText(text, fileName);
        return ParsedDocument.plain(fallbackId, stem(fileName), DocumentFormat.TEXT, text);
    }

    /**
     * Markdown with optional front matter. The title falls back to the first {@code # } heading
     * outside code fences, then the file name without extension; the id falls back to the file name
     * without extension.
     */
    public static ParsedDocument parseMarkdown(String text, String fileName) {
        return parseMarkdown(text, fileName, idFrom(stem(fileName)));
    }

    private static ParsedDocument parseMarkdown(String text, String fileName, String fallbackId) {
        TextChecks.requireText(text, fileName);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        List<String> lines = text.lines().toList();
        FrontMatter fm = new FrontMatter();
        String body = text;
        if (!lines.isEmpty() && lines.getFirst().strip().equals("---")) {
            int end = -1;
            for (int i = 1; i < lines.size(); i++) {
                String l = lines.get(i).strip();
                if (l.equals("---") || l.equals("...")) {
                    end = i;
                    break;
                }
            }
            if (end < 0) {
                throw new IllegalArgumentException(
                        "malformed front matter in "
                                + fileName
                                + " at line 1: opening '---' has no closing '---'");
            }
            String yaml = String.join("\n", lines.subList(1, end));
            if (yaml.length() > MAX_FRONT_MATTER_CHARS) {
                throw new IllegalArgumentException(
                        "malformed front matter in "
                                + fileName
                                + " at line 1: longer than "
                                + MAX_FRONT_MATTER_CHARS
                                + " characters");
            }
            fm = FrontMatter.parse(yaml, fileName);
            body = String.join("\n", lines.subList(end + 1, lines.size()));
            if (text.endsWith("\n") && !body.isEmpty()) {
                body += "\n";
            }
        }
        String stem = stem(fileName);
        String title = fm.title.isPresent() ? fm.title.get() : firstH1(body).orElse(stem);
        return new ParsedDocument(
                fm.id.orElse(fallbackId),
                title,
                DocumentFormat.MARKDOWN,
                fm.authority,
                fm.tags,
                fm.source,
                fm.metadata,
                fm.entities,
                fm.relations,
                body);
    }

    /** First level-1 ATX heading outside code fences. */
    static Optional<String> firstH1(String body) {
        String fence = null;
        for (String line : body.lines().toList()) {
            Matcher f = FENCE_OPEN.matcher(line);
            if (fence != null) {
                String s = line.strip();
                char fc = fence.charAt(0);
                if (s.length() >= fence.length() && s.chars().allMatch(c -> c == fc)) {
                    fence = null;
                }
                continue;
            }
            if (f.matches()) {
                fence = f.group(1);
                continue;
            }
            Matcher h = H1.matcher(line);
            if (h.matches() && !h.group(1).isBlank()) {
                return Optional.of(h.group(1).strip());
            }
        }
        return Optional.empty();
    }

    private static String stem(String fileName) {
        String name = fileName.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String idFrom(String stem) {
        String id = stem.strip();
        if (id.isEmpty()) {
            throw new IllegalArgumentException("illegal file name: '" + stem + "', gives no id");
        }
        return id;
    }

    /** Values read from a front matter block. */
    private static final class FrontMatter {
        Optional<String> id = Optional.empty();
        Optional<String> title = Optional.empty();
        Authority authority = Authority.DEFAULT;
        List<String> tags = List.of();
        String source = "";
        final Map<String, String> metadata = new LinkedHashMap<>();
        final List<DeclaredEntity> entities = new ArrayList<>();
        final Map<RelationType, List<String>> relations = new EnumMap<>(RelationType.class);

        /** First line of the YAML text is line 2 of the file. */
        private static final int LINE_OFFSET = 2;

        /**
         * Most aliases ({@code *name}) of lists and mappings in front matter: a few are convenient,
         * many are how a small text expands into a huge one ("billion laughs").
         */
        static final int MAX_COLLECTION_ALIASES = 10;

        /** Deepest nesting of lists and mappings in front matter. */
        static final int MAX_NESTING = 20;

        static FrontMatter parse(String yaml, String fileName) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(MAX_COLLECTION_ALIASES);
            options.setNestingDepthLimit(MAX_NESTING);
            Node root;
            try {
                root =
                        new Yaml(new SafeConstructor(options))
                                .compose(new java.io.StringReader(yaml));
            } catch (MarkedYAMLException e) {
                Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
                int line = mark == null ? 1 : mark.getLine() + LINE_OFFSET;
                throw new IllegalArgumentException(
                        "malformed front matter in "
                                + fileName
                                + " at line "
                                + line
                                + ": "
                                + (e.getProblem() == null ? e.getContext() : e.getProblem()),
                        e);
            } catch (YAMLException e) {
                throw new IllegalArgumentException(beyondLimits(fileName, e), e);
            }
            FrontMatter fm = new FrontMatter();
            if (root == null) {
                return fm;
            }
            if (!(root instanceof MappingNode map)) {
                throw error(fileName, root, "front matter must be a mapping of keys to values");
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (NodeTuple t : map.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode keyNode)) {
                    throw error(fileName, t.getKeyNode(), "keys must be plain strings");
                }
                String key = keyNode.getValue();
                if (!seen.add(key)) {
                    throw error(fileName, keyNode, "duplicate key '" + key + "'");
                }
                Node value = t.getValueNode();
                if (isNull(value)) {
                    continue;
                }
                switch (key) {
                    case "id" -> fm.id = Optional.of(nonBlank(fileName, key, value));
                    case "title" -> fm.title = Optional.of(nonBlank(fileName, key, value));
                    case "authority" -> {
                        try {
                            fm.authority = Authority.parse(scalar(fileName, key, value));
                        } catch (IllegalArgumentException e) {
                            throw error(fileName, value, e.getMessage());
                        }
                    }
                    case "tags" -> fm.tags = strings(fileName, key, value);
                    case "source" -> fm.source = scalar(fileName, key, value);
                    case "entities" -> fm.entities.addAll(entities(fileName, value));
                    default -> {
                        Optional<RelationType> type = relationType(key);
                        if (type.isPresent()) {
                            fm.relations.put(type.get(), strings(fileName, key, value));
                        } else {
                            fm.metadata.put(key, flow(value));
                        }
                    }
                }
            }
            return fm;
        }

        /**
         * Cairn's words for the limits the YAML library enforces without saying where (it has no
         * exception type per limit, so its message tells which), never the library's own text.
         */
        private static String beyondLimits(String fileName, YAMLException e) {
            String why = String.valueOf(e.getMessage());
            String prefix = "front matter in " + fileName + " ";
            if (why.contains("aliases")) {
                return prefix
                        + "refers to lists or mappings by alias (*name) more than "
                        + MAX_COLLECTION_ALIASES
                        + " times; write the values out instead";
            }
            if (why.contains("Nesting Depth")) {
                return prefix + "nests lists and mappings deeper than " + MAX_NESTING + " levels";
            }
            return "malformed front matter in " + fileName + ": it is not readable as YAML";
        }

        /** The relation type a front matter key names, if it names one (exact wire name). */
        private static Optional<RelationType> relationType(String key) {
            for (RelationType t : RelationType.values()) {
                if (t.wireName().equals(key)) {
                    return Optional.of(t);
                }
            }
            return Optional.empty();
        }

        private static List<DeclaredEntity> entities(String fileName, Node value) {
            if (!(value instanceof SequenceNode seq)) {
                throw error(fileName, value, "entities must be a list");
            }
            List<DeclaredEntity> out = new ArrayList<>();
            for (Node item : seq.getValue()) {
                if (item instanceof ScalarNode s) {
                    out.add(new DeclaredEntity(nonBlank(fileName, "entity", s), "", List.of()));
                    continue;
                }
                if (!(item instanceof MappingNode m)) {
                    throw error(fileName, item, "an entity must be {name, kind, aliases}");
                }
                String name = null;
                String kind = "";
                List<String> aliases = List.of();
                for (NodeTuple t : m.getValue()) {
                    String k = t.getKeyNode() instanceof ScalarNode ks ? ks.getValue() : "";
                    Node v = t.getValueNode();
                    if (isNull(v)) {
                        continue;
                    }
                    switch (k) {
                        case "name" -> name = nonBlank(fileName, "entity name", v);
                        case "kind" -> kind = scalar(fileName, "entity kind", v);
                        case "aliases" -> aliases = strings(fileName, "entity aliases", v);
                        default ->
                                throw error(
                                        fileName,
                                        t.getKeyNode(),
                                        "unknown entity key '"
                                                + k
                                                + "', expected name, kind, aliases");
                    }
                }
                if (name == null) {
                    throw error(fileName, item, "an entity needs a name");
                }
                out.add(new DeclaredEntity(name, kind, aliases));
            }
            return out;
        }

        private static boolean isNull(Node node) {
            return node instanceof ScalarNode s && Tag.NULL.equals(s.getTag());
        }

        private static String scalar(String fileName, String key, Node node) {
            if (!(node instanceof ScalarNode s)) {
                throw error(fileName, node, key + " must be a single value");
            }
            return s.getValue();
        }

        private static String nonBlank(String fileName, String key, Node node) {
            String v = scalar(fileName, key, node).strip();
            if (v.isEmpty()) {
                throw error(fileName, node, key + " must not be blank");
            }
            return v;
        }

        /** A list of strings, or one string as a list of one. */
        private static List<String> strings(String fileName, String key, Node node) {
            if (node instanceof ScalarNode) {
                return List.of(nonBlank(fileName, key, node));
            }
            if (!(node instanceof SequenceNode seq)) {
                throw error(fileName, node, key + " must be a list or a single value");
            }
            List<String> out = new ArrayList<>();
            for (Node item : seq.getValue()) {
                out.add(nonBlank(fileName, key, item));
            }
            return out;
        }

        /** YAML flow text of a node, e.g. {@code [a, b]} or {@code {k: v}}. */
        private static String flow(Node node) {
            return switch (node) {
                case ScalarNode s -> s.getValue();
                case SequenceNode seq -> {
                    List<String> items = new ArrayList<>();
                    seq.getValue().forEach(n -> items.add(flow(n)));
                    yield "[" + String.join(", ", items) + "]";
                }
                case MappingNode m -> {
                    List<String> items = new ArrayList<>();
                    m.getValue()
                            .forEach(
                                    t ->
                                            items.add(
                                                    flow(t.getKeyNode())
                                                            + ": "
                                                            + flow(t.getValueNode())));
                    yield "{" + String.join(", ", items) + "}";
                }
                default -> node.toString();
            };
        }

        private static IllegalArgumentException error(String fileName, Node node, String what) {
            int line =
                    node.getStartMark() == null ? 1 : node.getStartMark().getLine() + LINE_OFFSET;
            return new IllegalArgumentException(
                    "malformed front matter in " + fileName + " at line " + line + ": " + what);
        }
    }
}
