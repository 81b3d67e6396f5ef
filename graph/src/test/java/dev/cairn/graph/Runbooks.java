package dev.cairn.graph;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/**
 * The runbook fixture in {@code src/test/resources/runbooks}: Markdown with YAML front matter as in
 * API.md, chunked at {@code ## } headings (the first chunk holds the title).
 */
record Runbooks(List<Runbook> all) {

    record Runbook(
            String id,
            String title,
            String authority,
            List<String> tags,
            List<EntityDeclaration> entities,
            Map<RelationType, List<String>> relations,
            String body,
            List<GraphDocument.Chunk> chunks) {

        GraphDocument graphDocument() {
            return new GraphDocument(id, entities, chunks, relations);
        }
    }

    static Runbooks load() {
        try {
            Path dir = Path.of(Runbooks.class.getResource("/runbooks").toURI());
            List<Runbook> all = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                    all.add(parse(Files.readString(file)));
                }
            }
            return new Runbooks(List.copyOf(all));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    void ingestInto(EntityGraph graph, String namespace) {
        for (Runbook r : all) {
            graph.ingest(namespace, r.graphDocument());
        }
    }

    Runbook get(String id) {
        return all.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    static Runbook parse(String text) {
        if (!text.startsWith("---\n")) {
            throw new IllegalArgumentException("no front matter");
        }
        int end = text.indexOf("\n---\n", 4);
        Map<String, Object> fm = new Yaml().load(text.substring(4, end));
        String body = text.substring(end + 5);
        String id = (String) fm.get("id");
        List<EntityDeclaration> entities = new ArrayList<>();
        for (Map<String, Object> e :
                (List<Map<String, Object>>) fm.getOrDefault("entities", List.of())) {
            entities.add(
                    new EntityDeclaration(
                            String.valueOf(e.get("name")),
                            EntityKind.parse(String.valueOf(e.getOrDefault("kind", "other"))),
                            ((List<Object>) e.getOrDefault("aliases", List.of()))
                                    .stream().map(String::valueOf).toList()));
        }
        Map<RelationType, List<String>> relations = new EnumMap<>(RelationType.class);
        for (RelationType type : RelationType.values()) {
            Object values = fm.get(type.wireName());
            if (values instanceof List<?> list && !list.isEmpty()) {
                relations.put(type, list.stream().map(String::valueOf).toList());
            }
        }
        List<GraphDocument.Chunk> chunks = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : body.split("\n", -1)) {
            if (line.startsWith("## ") && !current.toString().isBlank()) {
                chunks.add(
                        new GraphDocument.Chunk(
                                id + "#" + chunks.size(), current.toString().strip()));
                current.setLength(0);
            }
            current.append(line).append('\n');
        }
        if (!current.toString().isBlank()) {
            chunks.add(
                    new GraphDocument.Chunk(id + "#" + chunks.size(), current.toString().strip()));
        }
        return new Runbook(
                id,
                String.valueOf(fm.get("title")),
                String.valueOf(fm.getOrDefault("authority", "supporting")),
                ((List<Object>) fm.getOrDefault("tags", List.of()))
                        .stream().map(String::valueOf).toList(),
                entities,
                relations,
                body,
                chunks);
    }
}
