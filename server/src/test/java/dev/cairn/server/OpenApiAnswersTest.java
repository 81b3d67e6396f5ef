package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.cairn.server.http.Json;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real answers and bodies against {@code openapi.yaml}: answers of retrieve, recall, memories,
 * documents, traces, ARK's message list and Orloj's search validate against the schema the document
 * gives their operation and status (an OpenAPI 3.0 validator for types, required fields, enums and
 * nullability, plus a walk that finds any field the schema does not declare); and every {@code /v1}
 * operation whose body is a record answers an unknown field with the record's known fields, which
 * must be the properties its request schema lists.
 */
@RoutingTest
class OpenApiAnswersTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/contract";

    /** {@link #NS} as the document's paths name it. */
    static final String T = "/v1/namespaces/{ns}";

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static JsonNode document;
    static SchemaRegistry registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi30());
    static String memoryId;
    static String proposalId;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        Duration patient = Duration.ofSeconds(30);
        cairn =
                RoutedCairn.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withRetrieval(
                                        dev.cairn.retrieval.RetrievalConfig.defaults()
                                                .withTimeouts(patient, patient, patient)),
                        routing);
    }

    @BeforeAll
    static void start(DirectClient client) throws java.io.IOException {
        cairn.connect(client);
        OpenApiSchemaTest.load();
        document = Json.MAPPER.valueToTree(OpenApiSchemaTest.document);
        expect(
                cairn.call(
                        "POST",
                        "/v1/namespaces",
                        A,
                        "{\"name\":\"contract\",\"recallScope\":\"namespace\"}"),
                201);
        ObjectNode doc = Json.MAPPER.createObjectNode();
        doc.put("id", "rotate-keys");
        doc.put("content", "# Rotate the keys\n\nRotate the signing keys every ninety days.");
        doc.putArray("tags").add("security");
        doc.putObject("metadata").put("owner", "platform");
        expect(cairn.call("POST", NS + "/documents", A, doc.toString()), 201);
        memoryId =
                expect(
                                cairn.call(
                                        "POST",
                                        NS + "/memories",
                                        A,
                                        "{\"type\":\"PREFERENCE\",\"content\":\"Jon eats"
                                                + " vegetarian food\",\"userId\":\"jon\"}"),
                                201)
                        .get("id")
                        .asText();
        proposalId =
                expect(
                                cairn.call(
                                        "POST",
                                        NS + "/proposals",
                                        A,
                                        "{\"type\":\"memory\",\"title\":\"t\",\"content\":\"c\"}"),
                                201)
                        .get("id")
                        .asText();
        expect(
                cairn.call(
                        "POST",
                        "/ark/contract/messages",
                        A,
                        "{\"conversation_id\":\"c1\",\"query_id\":\"q1\",\"messages\":"
                                + "[{\"role\":\"user\",\"content\":\"hello\"}]}"),
                200);
        expect(
                cairn.call(
                        "POST",
                        "/orloj/contract/put",
                        A,
                        "{\"key\":\"deploy\",\"value\":\"deploys go out on Tuesdays\"}"),
                200);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static JsonNode expect(CairnCalls.Response r, int status) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.body().isEmpty() ? null : r.json();
    }

    /** The JSON pointer of an operation's answer schema; {@code /} in the path escaped. */
    static String pointer(String method, String path, int status, String media) {
        return "/paths/"
                + path.replace("~", "~0").replace("/", "~1")
                + "/"
                + method.toLowerCase(Locale.ROOT)
                + "/responses/"
                + status
                + "/content/"
                + media.replace("/", "~1")
                + "/schema";
    }

    /**
     * Calls {@code method} on {@code template} with its path parameters filled in by {@code
     * concrete}, and checks the answer against the document's schema for its status.
     */
    static JsonNode conforms(String method, String template, String concrete, String body) {
        CairnCalls.Response r = cairn.call(method, concrete, A, body);
        assertThat(r.status()).as(r.body()).isBetween(200, 299);
        String media = r.contentType().replaceAll(";.*", "").strip();
        String at = pointer(method, template.replaceAll("\\?.*", ""), r.status(), media);
        assertThat(document.at(at).isMissingNode())
                .as(method + " " + template + " has no schema for " + r.status() + " " + media)
                .isFalse();
        ObjectNode root = document.deepCopy();
        root.put("$ref", "#" + at);
        Schema schema = registry.getSchema(root);
        JsonNode answer = r.json();
        List<String> problems = new ArrayList<>();
        schema.validate(answer).forEach(e -> problems.add(e.toString()));
        undeclared(answer, document.at(at), "$", problems);
        assertThat(problems).as(method + " " + concrete + " answered " + r.body()).isEmpty();
        return answer;
    }

    /** Fields of {@code value} that {@code schema} (refs resolved, allOf merged) does not name. */
    static void undeclared(JsonNode value, JsonNode schema, String where, List<String> out) {
        schema = resolved(schema);
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                undeclared(value.get(i), schema.get("items"), where + "[" + i + "]", out);
            }
            return;
        }
        if (!value.isObject()
                || Set.of("properties", "allOf", "anyOf", "oneOf", "additionalProperties").stream()
                        .noneMatch(schema::has)) {
            return; // not an object, or any JSON
        }
        Map<String, JsonNode> properties = new java.util.LinkedHashMap<>();
        JsonNode additional = schema.get("additionalProperties");
        List<JsonNode> parts = new ArrayList<>();
        if (schema.has("allOf")) {
            schema.get("allOf").forEach(p -> parts.add(resolved(p)));
        } else if (schema.has("anyOf") || schema.has("oneOf")) {
            return; // the validator has chosen among them; no one field set to hold it to
        } else {
            parts.add(schema);
        }
        for (JsonNode part : parts) {
            part.path("properties")
                    .properties()
                    .forEach(e -> properties.put(e.getKey(), e.getValue()));
            if (part.has("additionalProperties")) {
                additional = part.get("additionalProperties");
            }
        }
        for (var field : value.properties()) {
            JsonNode declared = properties.get(field.getKey());
            if (declared == null && additional != null && additional.isObject()) {
                declared = additional;
            }
            if (declared == null) {
                out.add(where + "." + field.getKey() + ": not in the document");
            } else {
                undeclared(field.getValue(), declared, where + "." + field.getKey(), out);
            }
        }
    }

    private static JsonNode resolved(JsonNode schema) {
        while (schema.has("$ref")) {
            schema = document.at(schema.get("$ref").asText().substring(1));
        }
        if (schema.has("allOf") && schema.get("allOf").size() == 1) {
            return resolved(schema.get("allOf").get(0));
        }
        return schema;
    }

    @Test
    void retrieveAnswersWithAndWithoutTraceConform() {
        String path = NS + "/retrieve";
        JsonNode plain =
                conforms("POST", T + "/retrieve", path, "{\"query\":\"rotate the signing keys\"}");
        assertThat(plain.get("hits")).isNotEmpty();
        JsonNode traced =
                conforms(
                        "POST",
                        T + "/retrieve",
                        path,
                        "{\"query\":\"rotate the signing keys\",\"trace\":true}");
        assertThat(traced.get("trace")).isNotEmpty();
        String traceId = traced.get("traceId").asText();
        conforms("GET", T + "/traces/{traceId}", NS + "/traces/" + traceId, null);
    }

    @Test
    void recallAndMemoryAnswersConform() {
        JsonNode recalled =
                conforms(
                        "POST",
                        T + "/recall",
                        NS + "/recall",
                        "{\"query\":\"what does Jon eat?\",\"userId\":\"jon\",\"threshold\":0}");
        assertThat(recalled.get("memories")).isNotEmpty();
        conforms("GET", T + "/memories/{id}", NS + "/memories/" + memoryId, null);
        conforms("GET", T + "/memories", NS + "/memories?limit=5", null);
        conforms(
                "PUT", T + "/memories/{id}", NS + "/memories/" + memoryId, "{\"tags\":[\"food\"]}");
    }

    @Test
    void documentAnswersConform() {
        JsonNode detail =
                conforms("GET", T + "/documents/{id}", NS + "/documents/rotate-keys", null);
        assertThat(detail.get("chunks")).isNotEmpty();
        conforms("GET", T + "/documents", NS + "/documents", null);
        conforms("GET", "/v1/namespaces", "/v1/namespaces", null);
        conforms("GET", T + "/proposals/{id}", NS + "/proposals/" + proposalId, null);
        conforms("GET", "/health", "/health", null);
    }

    @Test
    void arkAndOrlojAnswersConform() {
        JsonNode messages =
                conforms(
                        "GET",
                        "/ark/{ns}/messages",
                        "/ark/contract/messages?conversation_id=c1",
                        null);
        assertThat(messages.get("items")).hasSize(1);
        conforms("GET", "/ark/{ns}/conversations/{id}", "/ark/contract/conversations/c1", null);
        conforms("GET", "/ark/{ns}/memory-status", "/ark/contract/memory-status", null);
        JsonNode found =
                conforms(
                        "POST",
                        "/orloj/{ns}/search",
                        "/orloj/contract/search",
                        "{\"query\":\"when do deploys go out\",\"top_k\":3}");
        assertThat(found.get("results")).isNotEmpty();
        conforms("POST", "/orloj/{ns}/get", "/orloj/contract/get", "{\"key\":\"deploy\"}");
    }

    @Test
    void theDocumentsValidatorRejectsAnAnswerThatDoesNotFit() {
        String at =
                pointer(
                        "POST",
                        NS.replace("contract", "{ns}") + "/retrieve",
                        200,
                        "application/json");
        ObjectNode root = document.deepCopy();
        root.put("$ref", "#" + at);
        ObjectNode wrong = Json.MAPPER.createObjectNode().put("traceId", 7);
        assertThat(registry.getSchema(root).validate(wrong))
                .as("a number for traceId and the missing fields")
                .hasSizeGreaterThan(3);
        List<String> extra = new ArrayList<>();
        undeclared(Json.MAPPER.createObjectNode().put("surprise", 1), document.at(at), "$", extra);
        assertThat(extra).containsExactly("$.surprise: not in the document");
    }

    /**
     * Every {@code /v1} body that names a record schema: an unknown field is a 400 listing the
     * fields of the record the route really binds, and those are the schema's properties.
     */
    @Test
    @SuppressWarnings("unchecked")
    void requestSchemasListTheFieldsTheRoutesBind() {
        Map<String, String> ids =
                Map.of("{ns}", "contract", "{id}", memoryId, "{name}", "some-name");
        List<String> problems = new ArrayList<>();
        Set<String> probed = new java.util.TreeSet<>();
        for (var e : OpenApiSchemaTest.operations().entrySet()) {
            String method = e.getKey().substring(0, e.getKey().indexOf(' '));
            String template = e.getKey().substring(method.length() + 1);
            JsonNode body =
                    document.at(
                            "/paths/"
                                    + template.replace("/", "~1")
                                    + "/"
                                    + method.toLowerCase(Locale.ROOT)
                                    + "/requestBody/content/application~1json/schema");
            if (!template.startsWith("/v1/") || !body.has("$ref")) {
                continue;
            }
            String concrete = template;
            for (var id : ids.entrySet()) {
                concrete = concrete.replace(id.getKey(), id.getValue());
            }
            if (template.contains("/proposals/{id}")) {
                concrete = concrete.replace(memoryId, proposalId);
            }
            CairnCalls.Response r = cairn.call(method, concrete, A, "{\"zzUnknownField\":1}");
            String detail = r.status() == 400 ? r.json().path("detail").asText() : "";
            String marker = "known fields: ";
            if (!detail.contains(marker)) {
                problems.add(e.getKey() + ": " + r.status() + " " + r.body());
                continue;
            }
            Set<String> known =
                    new LinkedHashSet<>(
                            Arrays.asList(
                                    detail.substring(detail.indexOf(marker) + marker.length())
                                            .split(", ")));
            JsonNode schema = resolved(body);
            Set<String> documented = new LinkedHashSet<>();
            schema.path("properties").fieldNames().forEachRemaining(documented::add);
            if (!known.equals(documented)) {
                problems.add(e.getKey() + ": binds " + known + ", documented " + documented);
            }
            probed.add(body.get("$ref").asText().replaceAll(".*/", ""));
        }
        assertThat(problems).isEmpty();
        assertThat(probed)
                .as("every body record is some operation's request schema")
                .containsAll(
                        OpenApiSchemaTest.apiRecords().stream()
                                .filter(
                                        c ->
                                                RecordSchemas.isBody(c)
                                                        && c.getEnclosingClass() == null)
                                .map(RecordSchemas::name)
                                .toList());
    }
}
