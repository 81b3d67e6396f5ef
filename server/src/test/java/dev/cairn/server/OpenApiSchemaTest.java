package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.api.view.ListAnswer;
import dev.cairn.server.api.body.ToolArguments;
import dev.cairn.server.http.ErrorEnvelope;
import dev.cairn.server.http.Problems;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code openapi.yaml}'s schemas are checked against the code: every answer and request record has
 * its component, with the fields, types and always-sent fields {@link RecordSchemas} derives from
 * it; and every operation declares a schema for what it takes and answers, and the error answers
 * the server's filters and binders can give it, in the envelope of its path. {@link
 * OpenApiAnswersTest} checks real answers and bodies against the same document.
 */
class OpenApiSchemaTest {

    static final Set<String> METHODS = Set.of("get", "post", "put", "delete", "patch");

    /**
     * Components written by hand, for shapes no record has: problem details, the compatibility
     * mounts' error envelopes and bodies (read field by field, as their clients send them), the
     * judge module's judgement fields and the MCP message.
     */
    static final Set<String> HAND_WRITTEN =
            Set.of(
                    "Problem",
                    "ArkError",
                    "OrlojError",
                    "Judgement",
                    "ArkAppend",
                    "OrlojPut",
                    "OrlojKey",
                    "OrlojSearch",
                    "OrlojList",
                    "ToolDefinition",
                    "JsonRpcMessage");

    static Map<String, Object> document;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = OpenApiSchemaTest.class.getResourceAsStream("/openapi.yaml")) {
            document = new Yaml().load(in);
        }
    }

    /**
     * Every record of the answer and body packages (the shared wire records of {@code cairn-api}
     * and the server's own), the list shape, not the tool arguments.
     */
    static List<Class<?>> apiRecords() {
        List<Class<?>> records = new ArrayList<>();
        records.add(ListAnswer.class);
        for (String pkg :
                List.of(
                        "dev.cairn.api.view",
                        "dev.cairn.server.api.view",
                        "dev.cairn.api.body",
                        "dev.cairn.server.api.body")) {
            for (String name : classNames(pkg)) {
                try {
                    Class<?> type = Class.forName(pkg + "." + name);
                    if (type.isRecord()
                            && type.getEnclosingClass() != ToolArguments.class
                            && !type.isAnonymousClass()) {
                        records.add(type);
                    }
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return records;
    }

    /** The classes of a package, from a directory or (a module built into a jar) a jar. */
    private static List<String> classNames(String pkg) {
        URL url =
                OpenApiSchemaTest.class
                        .getClassLoader()
                        .getResource(pkg.replace('.', '/') + "/package-info.class");
        assertThat(url).as("compiled package " + pkg).isNotNull();
        try {
            URI uri = url.toURI();
            if (uri.getScheme().equals("jar")) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    return classNames(jar.provider().getPath(uri).getParent());
                }
            }
            return classNames(Path.of(uri).getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> classNames(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".class") && !f.equals("package-info.class"))
                    .sorted()
                    .map(f -> f.substring(0, f.length() - ".class".length()))
                    .toList();
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> components() {
        return (Map<String, Object>)
                ((Map<String, Object>) document.get("components")).get("schemas");
    }

    @Test
    @SuppressWarnings("unchecked")
    void componentSchemasAreTheRecordsFields() {
        Map<String, Map<String, Object>> derived = RecordSchemas.of(apiRecords());
        assertThat(derived)
                .as("the records were found")
                .containsKeys(
                        "RetrieveAnswer", "MemoryView", "RetrieveBody", "ArkAnswers.Messages");
        Map<String, Object> components = components();
        List<String> differences = new ArrayList<>();
        Map<String, Object> expected = new LinkedHashMap<>();
        derived.forEach(
                (name, schema) -> {
                    List<String> d =
                            RecordSchemas.differences(
                                    name,
                                    schema,
                                    (Map<String, Object>) components.get(name),
                                    derived,
                                    components);
                    if (!d.isEmpty()) {
                        differences.addAll(d);
                        expected.put(name, schema);
                    }
                });
        for (String name : components.keySet()) {
            if (!derived.containsKey(name) && !HAND_WRITTEN.contains(name)) {
                differences.add(name + ": no record has this name (nor is it hand-written)");
            }
        }
        assertThat(differences)
                .as(
                        "openapi.yaml components/schemas disagree with the records; derived from"
                                + " the code (add descriptions, enums, ranges, nullable as"
                                + " needed):\n"
                                + yaml(expected))
                .isEmpty();
    }

    /** Answers with no body although their status is not 204, by operation and status. */
    static final Set<String> EMPTY_ANSWERS =
            Set.of("POST /ark/{ns}/messages 200", "POST /mcp/{ns} 202", "DELETE /mcp/{ns} 200");

    /** POST and PUT operations that take no body. */
    static final Set<String> NO_BODY =
            Set.of(
                    "POST /ark/{ns}/conversations",
                    "POST /v1/namespaces/{ns}/proposals/{id}/archive");

    @Test
    @SuppressWarnings("unchecked")
    void everyOperationDeclaresWhatItTakesAndAnswersAndItsErrors() {
        Map<String, Map<String, Object>> ops = operations();
        assertThat(ops).hasSizeGreaterThan(50);
        List<String> problems = new ArrayList<>();
        ops.forEach(
                (op, o) -> {
                    String method = op.substring(0, op.indexOf(' '));
                    String path = op.substring(op.indexOf(' ') + 1);
                    Map<String, Object> responses = (Map<String, Object>) o.get("responses");
                    Set<String> statuses = new TreeSet<>(responses.keySet());
                    boolean open = List.of().equals(o.get("security"));
                    Map<String, Object> body = (Map<String, Object>) o.get("requestBody");
                    List<String> expected = new ArrayList<>();
                    if (!open) {
                        expected.addAll(List.of("401", "403"));
                    }
                    if (!open && path.contains("{")) {
                        expected.add("404");
                    }
                    if (body != null) {
                        expected.addAll(List.of("400", "413", "415"));
                        Map<String, Object> content = (Map<String, Object>) body.get("content");
                        if (content == null
                                || content.values().stream()
                                        .anyMatch(
                                                m ->
                                                        !((Map<String, Object>) m)
                                                                .containsKey("schema"))) {
                            problems.add(op + ": request body without a schema");
                        }
                    } else if (Set.of("POST", "PUT").contains(method) && !NO_BODY.contains(op)) {
                        problems.add(op + ": no request body");
                    }
                    for (String status : expected) {
                        if (!statuses.contains(status)) {
                            problems.add(op + ": no " + status + " answer");
                        }
                    }
                    responses.forEach(
                            (status, r) -> {
                                Map<String, Object> response = resolve((Map<String, Object>) r);
                                Map<String, Object> content =
                                        (Map<String, Object>) response.get("content");
                                if (status.startsWith("2")) {
                                    boolean empty =
                                            status.equals("204")
                                                    || EMPTY_ANSWERS.contains(op + " " + status);
                                    if (empty != (content == null)) {
                                        problems.add(
                                                op
                                                        + " "
                                                        + status
                                                        + (empty
                                                                ? ": has content"
                                                                : ": no content schema"));
                                    }
                                } else if (status.startsWith("4")) {
                                    String envelope = envelope(path, status, content);
                                    if (envelope != null) {
                                        problems.add(op + " " + status + ": " + envelope);
                                    }
                                }
                            });
                });
        assertThat(problems).as("operations of openapi.yaml").isEmpty();
    }

    /** What is wrong with an error answer's content for the envelope its path gets, or null. */
    @SuppressWarnings("unchecked")
    private static String envelope(String path, String status, Map<String, Object> content) {
        Map<String, String> allowed =
                switch (ErrorEnvelope.forPath(path)) {
                    case PROBLEM ->
                            path.startsWith("/mcp/")
                                    ? Map.of(
                                            Problems.MEDIA_TYPE,
                                            "Problem",
                                            "application/json",
                                            "JsonRpcMessage")
                                    : Map.of(Problems.MEDIA_TYPE, "Problem");
                    case ARK -> Map.of("application/json", "ArkError");
                    case ORLOJ -> Map.of("application/json", "OrlojError");
                };
        if (content == null || content.size() != 1) {
            return "one error schema expected, one of " + allowed;
        }
        var media = content.entrySet().iterator().next();
        Object schema = ((Map<String, Object>) media.getValue()).get("schema");
        String want = allowed.get(media.getKey());
        if (want == null || !Map.of("$ref", "#/components/schemas/" + want).equals(schema)) {
            return media.getKey() + " " + schema + ", expected one of " + allowed;
        }
        return null;
    }

    /** A response object, following a {@code $ref} to {@code components/responses}. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> resolve(Map<String, Object> response) {
        Object ref = response.get("$ref");
        if (ref == null) {
            return response;
        }
        String name = ((String) ref).substring("#/components/responses/".length());
        return (Map<String, Object>)
                ((Map<String, Object>)
                                ((Map<String, Object>) document.get("components")).get("responses"))
                        .get(name);
    }

    /** Component schemas as the document writes them: a property per line, in flow style. */
    static String yaml(Map<String, Object> schemas) {
        StringBuilder out = new StringBuilder();
        schemas.forEach((name, schema) -> block(out, "    ", name, schema));
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void block(StringBuilder out, String indent, String key, Object value) {
        String flow = flow(value);
        if (!(value instanceof Map<?, ?> map)
                || (indent.length() + key.length() + flow.length() < 100
                        && !map.containsKey("properties")
                        && !key.equals("properties"))) {
            out.append(indent).append(key).append(": ").append(flow).append('\n');
            return;
        }
        out.append(indent).append(key).append(":\n");
        ((Map<String, Object>) map).forEach((k, v) -> block(out, indent + "  ", k, v));
    }

    private static String flow(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(value).strip();
    }

    /** "POST /v1/namespaces/{ns}/retrieve" to its operation object, in document order. */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> operations() {
        Map<String, Map<String, Object>> ops = new LinkedHashMap<>();
        ((Map<String, Map<String, Object>>) document.get("paths"))
                .forEach(
                        (path, item) ->
                                item.forEach(
                                        (method, op) -> {
                                            if (METHODS.contains(method)) {
                                                ops.put(
                                                        method.toUpperCase(Locale.ROOT)
                                                                + " "
                                                                + path,
                                                        (Map<String, Object>) op);
                                            }
                                        }));
        return ops;
    }
}
