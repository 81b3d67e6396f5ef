package dev.cairn.server.api;

import dev.cairn.retrieval.GraphContext;
import dev.cairn.retrieval.IngestResult;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.StoredTrace;
import dev.cairn.retrieval.TraceCandidate;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.server.api.body.DocumentBody;
import dev.cairn.server.api.body.RetrieveBody;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.RequestBodies;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

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
        DocumentBody body = RequestBodies.read(req, maxBodyBytes, DocumentBody.class);
        String content = Fields.required(body.content(), "content");
        long bytes = content.getBytes(StandardCharsets.UTF_8).length;
        long limit = knowledge.config().maxDocumentBytes();
        if (bytes > limit) {
            throw new HttpProblem(
                    413, "document content has " + bytes + " bytes, over the limit of " + limit);
        }
        DocumentFormat format = format(body.format());
        String hint =
                Optional.ofNullable(body.id())
                        .or(() -> Optional.ofNullable(body.title()))
                        .orElse("document");
        String fileName = hint + (format == DocumentFormat.MARKDOWN ? ".md" : ".txt");
        ParsedDocument parsed =
                format == DocumentFormat.MARKDOWN
                        ? DocumentParser.parseMarkdown(content, fileName)
                        : DocumentParser.parseText(content, fileName);
        IngestResult result = knowledge.ingest(ns, overrides(parsed, body));
        Json.send(res, 201, new Ingested(result.id(), result.version(), result.chunks()));
    }

    /** The answer of a document upload. */
    record Ingested(String id, long version, int chunks) {}

    /** Fields of the request body win over the front matter. */
    private static ParsedDocument overrides(ParsedDocument parsed, DocumentBody body) {
        String id = Objects.requireNonNullElse(body.id(), parsed.id());
        if (id.isBlank()) {
            throw new IllegalArgumentException("field 'id' must not be blank");
        }
        Map<String, String> metadata = new LinkedHashMap<>(parsed.metadata());
        body.metadata()
                .forEach(
                        (key, value) ->
                                metadata.put(
                                        key,
                                        value.isTextual() ? value.asText() : value.toString()));
        return new ParsedDocument(
                id,
                Objects.requireNonNullElse(body.title(), parsed.title()),
                parsed.format(),
                body.authority() == null ? parsed.authority() : Authority.parse(body.authority()),
                Objects.requireNonNullElse(body.tags(), parsed.tags()),
                Objects.requireNonNullElse(body.source(), parsed.source()),
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
        RetrieveBody body = RequestBodies.read(req, maxBodyBytes, RetrieveBody.class);
        boolean withTrace =
                req.query().first("trace").map(Boolean::parseBoolean).orElse(false) || body.trace();
        RetrieveResult result = knowledge.retrieve(ns, body.toRequest());
        Json.send(res, 200, answer(result, withTrace));
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
}
