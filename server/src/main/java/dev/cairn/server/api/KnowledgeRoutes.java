package dev.cairn.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.retrieval.FusionStrategy;
import dev.cairn.retrieval.GraphContext;
import dev.cairn.retrieval.IngestResult;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrieveFilters;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.StoredTrace;
import dev.cairn.retrieval.TraceCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Authority;
import dev.cairn.store.DocumentFormat;
import dev.cairn.store.Store;
import dev.cairn.store.StoredChunk;
import dev.cairn.store.StoredDocument;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/** Knowledge resources under {@code /v1/namespaces/{ns}}: documents, retrieve and traces. */
public final class KnowledgeRoutes implements HttpService {

    private static final String BASE = "/v1/namespaces/{ns}";
    private final KnowledgeBase knowledge;
    private final Store store;
    private final long maxBodyBytes;

    public KnowledgeRoutes(KnowledgeBase knowledge, long maxBodyBytes) {
        this.knowledge = knowledge;
        this.store = knowledge.store();
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(BASE + "/documents", this::createDocument)
                .get(BASE + "/documents", this::listDocuments)
                .get(BASE + "/documents/{id}", this::getDocument)
                .delete(BASE + "/documents/{id}", this::deleteDocument)
                .post(BASE + "/retrieve", this::retrieve)
                .get(BASE + "/traces/{traceId}", this::trace);
        Routes.methodNotAllowed(
                rules,
                BASE + "/documents",
                BASE + "/documents/{id}",
                BASE + "/retrieve",
                BASE + "/traces/{traceId}");
    }

    // ---- documents ---------------------------------------------------------------------

    private void createDocument(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        ObjectNode body = Json.readObject(req, maxBodyBytes);
        String content = Fields.requiredText(body, "content");
        long bytes = content.getBytes(StandardCharsets.UTF_8).length;
        long limit = knowledge.config().maxDocumentBytes();
        if (bytes > limit) {
            throw new HttpProblem(
                    413, "document content has " + bytes + " bytes, over the limit of " + limit);
        }
        DocumentFormat format =
                Fields.optionalText(body, "format")
                        .map(KnowledgeRoutes::format)
                        .orElse(DocumentFormat.MARKDOWN);
        String hint =
                Fields.optionalText(body, "id")
                        .or(() -> Fields.optionalText(body, "title"))
                        .orElse("document");
        String fileName = hint + (format == DocumentFormat.MARKDOWN ? ".md" : ".txt");
        ParsedDocument parsed =
                format == DocumentFormat.MARKDOWN
                        ? DocumentParser.parseMarkdown(content, fileName)
                        : DocumentParser.parseText(content, fileName);
        ParsedDocument document = overrides(parsed, body);
        IngestResult result = knowledge.ingest(ns, document);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("id", result.id());
        answer.put("version", result.version());
        answer.put("chunks", result.chunks());
        Json.send(res, 201, answer);
    }

    /** Fields of the request body win over the front matter. */
    private static ParsedDocument overrides(ParsedDocument parsed, ObjectNode body) {
        String id = Fields.optionalText(body, "id").orElse(parsed.id());
        if (id.isBlank()) {
            throw new IllegalArgumentException("field 'id' must not be blank");
        }
        String title = Fields.optionalText(body, "title").orElse(parsed.title());
        String source = Fields.optionalText(body, "source").orElse(parsed.source());
        Authority authority =
                Fields.optionalText(body, "authority")
                        .map(Authority::parse)
                        .orElse(parsed.authority());
        List<String> tags = body.has("tags") ? Fields.strings(body, "tags") : parsed.tags();
        Map<String, String> metadata = new LinkedHashMap<>(parsed.metadata());
        JsonNode meta = body.get("metadata");
        if (meta != null && !meta.isNull()) {
            if (!meta.isObject()) {
                throw new IllegalArgumentException("field 'metadata' must be an object");
            }
            meta.fields()
                    .forEachRemaining(
                            e ->
                                    metadata.put(
                                            e.getKey(),
                                            e.getValue().isTextual()
                                                    ? e.getValue().asText()
                                                    : e.getValue().toString()));
        }
        return new ParsedDocument(
                id,
                title,
                parsed.format(),
                authority,
                tags,
                source,
                metadata,
                parsed.entities(),
                parsed.relations(),
                parsed.body());
    }

    private static DocumentFormat format(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "markdown" -> DocumentFormat.MARKDOWN;
            case "text" -> DocumentFormat.TEXT;
            default ->
                    throw new IllegalArgumentException(
                            "unknown format: '" + value + "', must be one of markdown, text");
        };
    }

    private void listDocuments(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String q = req.query().first("q").orElse("");
        Json.send(
                res,
                200,
                Paging.listAnswer(
                        store.documents(ns, Paging.pageRequest(req), q),
                        KnowledgeRoutes::documentView));
    }

    private void getDocument(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("id");
        StoredDocument document =
                store.document(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "document '" + id + "' does not exist"));
        Map<String, Object> view = documentView(document);
        view.put("content", document.content());
        List<Map<String, Object>> chunks = new ArrayList<>();
        for (StoredChunk chunk : store.chunks(ns, id)) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("chunkId", chunk.id());
            c.put("ordinal", chunk.ordinal());
            c.put("heading", chunk.heading());
            c.put("headingPath", chunk.headingPath());
            c.put("text", chunk.text());
            c.put("tokens", chunk.tokenCount());
            c.put("embeddingModel", chunk.embeddingModel());
            chunks.add(c);
        }
        view.put("chunks", chunks);
        Json.send(res, 200, view);
    }

    private void deleteDocument(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        String id = req.path().pathParameters().get("id");
        if (!knowledge.delete(ns, id)) {
            throw new NoSuchElementException("document '" + id + "' does not exist");
        }
        res.status(204).send();
    }

    static Map<String, Object> documentView(StoredDocument d) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", d.id());
        view.put("version", d.version());
        view.put("title", d.title());
        view.put("format", d.format().name().toLowerCase(Locale.ROOT));
        view.put("source", d.source());
        view.put("authority", d.authority().key());
        view.put("tags", d.tags());
        view.put("metadata", d.metadata());
        view.put("contentHash", d.contentHash());
        view.put("createdAt", d.createdAt().toString());
        view.put("updatedAt", d.updatedAt().toString());
        return view;
    }

    // ---- retrieve ----------------------------------------------------------------------

    private void retrieve(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        ObjectNode body = Json.readObject(req, maxBodyBytes);
        boolean withTrace =
                req.query().first("trace").map(Boolean::parseBoolean).orElse(false)
                        || (body.has("trace") && body.get("trace").asBoolean(false));
        RetrieveRequest request = request(body);
        RetrieveResult result = knowledge.retrieve(ns, request);
        Json.send(res, 200, answer(result, withTrace));
    }

    /** The API request body as a retrieve request; the CLI shares it. */
    public static RetrieveRequest request(ObjectNode body) {
        String query = Fields.optionalText(body, "query").orElse("");
        int topK = intField(body, "topK", RetrieveRequest.DEFAULT_TOP_K);
        int candidates = intField(body, "candidates", RetrieveRequest.DEFAULT_CANDIDATES);
        int k = intField(body, "k", Fusion.DEFAULT_K);
        SignalWeights weights = SignalWeights.DEFAULTS;
        JsonNode w = body.get("weights");
        if (w != null && !w.isNull()) {
            if (!w.isObject()) {
                throw new IllegalArgumentException("field 'weights' must be an object");
            }
            w.fieldNames()
                    .forEachRemaining(
                            name -> {
                                if (!Set.of("lexical", "dense", "graph").contains(name)) {
                                    throw new IllegalArgumentException(
                                            "unknown weight '"
                                                    + name
                                                    + "', must be one of lexical, dense, graph");
                                }
                            });
            weights =
                    SignalWeights.of(
                            number(w, "lexical", SignalWeights.DEFAULT_LEXICAL),
                            number(w, "dense", SignalWeights.DEFAULT_DENSE),
                            number(w, "graph", SignalWeights.DEFAULT_GRAPH));
        }
        FusionStrategy fusion =
                Fields.optionalText(body, "fusion")
                        .map(FusionStrategy::parse)
                        .orElse(FusionStrategy.DEFAULT);
        RetrieveFilters filters = RetrieveFilters.NONE;
        JsonNode f = body.get("filters");
        if (f != null && !f.isNull()) {
            if (!f.isObject()) {
                throw new IllegalArgumentException("field 'filters' must be an object");
            }
            ObjectNode fo = (ObjectNode) f;
            Set<Authority> authorities = EnumSet.noneOf(Authority.class);
            if (fo.has("authority")) {
                JsonNode a = fo.get("authority");
                if (a.isTextual()) {
                    authorities.add(Authority.parse(a.asText()));
                } else {
                    Fields.strings(fo, "authority")
                            .forEach(s -> authorities.add(Authority.parse(s)));
                }
            }
            filters =
                    new RetrieveFilters(
                            Fields.strings(fo, "tags"), Fields.strings(fo, "sources"), authorities);
        }
        boolean explain = body.has("explain") && body.get("explain").asBoolean(false);
        return new RetrieveRequest(query, topK, candidates, weights, k, fusion, filters, explain);
    }

    /** The API answer of a retrieve call; the CLI shares it. */
    public static Map<String, Object> answer(RetrieveResult result, boolean withTrace) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("traceId", result.traceId());
        List<Map<String, Object>> hits = new ArrayList<>();
        for (RetrievedHit hit : result.hits()) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("chunkId", hit.chunkId());
            h.put("documentId", hit.documentId());
            h.put("title", hit.title());
            h.put("text", hit.text());
            h.put("heading", hit.heading());
            h.put("score", hit.score());
            h.put("authority", hit.authority().key());
            h.put("ranks", bySignal(hit.ranks()));
            h.put("scores", bySignal(hit.scores()));
            hits.add(h);
        }
        answer.put("hits", hits);
        if (withTrace) {
            List<Map<String, Object>> trace = new ArrayList<>();
            for (TraceCandidate c : result.candidates()) {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("chunkId", c.chunkId());
                t.put("documentId", c.documentId());
                t.put("ranks", bySignal(c.ranks()));
                t.put("scores", bySignal(c.scores()));
                t.put("fused", c.fused());
                t.put("selected", c.selected());
                if (c.filteredOut()) {
                    t.put("filteredOut", true);
                }
                if (!c.explanation().isEmpty()) {
                    t.put("explanation", c.explanation());
                }
                if (!c.graphPath().isEmpty()) {
                    t.put(
                            "graphPath",
                            c.graphPath().stream().map(KnowledgeRoutes::relationView).toList());
                }
                trace.add(t);
            }
            answer.put("trace", trace);
        }
        Map<String, List<String>> evidence = new LinkedHashMap<>();
        for (Authority a : Authority.values()) {
            evidence.put(
                    a.key(),
                    result.hits().stream()
                            .filter(h -> h.authority() == a)
                            .map(RetrievedHit::chunkId)
                            .toList());
        }
        answer.put("evidence", evidence);
        answer.put(
                "entities",
                result.graph().entities().stream()
                        .map(e -> Map.of("id", e.id(), "name", e.name()))
                        .toList());
        answer.put(
                "relations",
                result.graph().relations().stream().map(KnowledgeRoutes::relationView).toList());
        answer.put("grounding", result.grounding());
        answer.put("plan", result.plan().wireName());
        Map<String, Object> timings = new LinkedHashMap<>();
        timings.put("lexicalMs", result.timings().lexicalMs());
        timings.put("denseMs", result.timings().denseMs());
        timings.put("graphMs", result.timings().graphMs());
        timings.put("fusionMs", result.timings().fusionMs());
        timings.put("totalMs", result.timings().totalMs());
        answer.put("timings", timings);
        answer.put("signals", signals(result.signals()));
        answer.put("partial", result.partial());
        return answer;
    }

    private static Map<String, Object> relationView(GraphContext.TraversedRelation r) {
        return Map.of("from", r.from(), "to", r.to(), "type", r.type(), "weight", r.weight());
    }

    private static Map<String, Object> signals(List<SignalOutcome> outcomes) {
        Map<String, Object> view = new LinkedHashMap<>();
        for (SignalOutcome o : outcomes) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("status", o.status().name().toLowerCase(Locale.ROOT));
            s.put("ms", o.millis());
            s.put("returned", o.returned());
            if (!o.detail().isEmpty()) {
                s.put("detail", o.detail());
            }
            view.put(o.signal().name().toLowerCase(Locale.ROOT), s);
        }
        return view;
    }

    private void trace(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("traceId");
        StoredTrace trace =
                knowledge
                        .trace(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "trace '" + id + "' does not exist"));
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("traceId", trace.traceId());
        view.put("query", trace.query());
        view.put("request", trace.request());
        view.put("grounding", trace.grounding());
        view.put("plan", trace.plan().wireName());
        view.put("timings", trace.timings());
        view.put("signals", signals(trace.signals()));
        view.put("createdAt", trace.createdAt().toString());
        List<Map<String, Object>> entries = new ArrayList<>();
        for (StoredTrace.Entry e : trace.entries()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("chunkId", e.chunkId());
            t.put("documentId", e.documentId());
            t.put("fused", e.fused());
            t.put("ranks", bySignal(e.ranks()));
            t.put("scores", bySignal(e.scores()));
            t.put("selected", e.selected());
            if (e.selected()) {
                t.put("title", e.title());
                t.put("heading", e.heading());
                t.put("text", e.text());
                t.put("authority", e.authority().key());
            }
            entries.add(t);
        }
        view.put("trace", entries);
        Json.send(res, 200, view);
    }

    private static Map<String, Object> bySignal(Map<Signal, ? extends Number> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            if (values.containsKey(s)) {
                out.put(s.name().toLowerCase(Locale.ROOT), values.get(s));
            }
        }
        return out;
    }

    private static int intField(ObjectNode body, String field, int defaultValue) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return defaultValue;
        }
        if (!node.isInt()) {
            throw new IllegalArgumentException("field '" + field + "' must be an integer");
        }
        return node.asInt();
    }

    private static double number(JsonNode node, String field, double defaultValue) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return defaultValue;
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException("weight '" + field + "' must be a number");
        }
        return value.asDouble();
    }
}
