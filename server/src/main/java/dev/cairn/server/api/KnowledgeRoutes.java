package dev.cairn.server.api;

import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.DocumentView;
import dev.cairn.retrieval.IngestMode;
import dev.cairn.retrieval.IngestResult;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.StoredTrace;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.DocumentFormat;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.server.api.view.KnowledgeViews;
import dev.cairn.server.api.view.TraceView;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.MetricsFilter;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
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
        rules.post(
                        BASE + "/documents",
                        QueryParameters.accept(SKIP_UNCHANGED).to(this::createDocument))
                .get(BASE + "/documents", QueryParameters.PAGE.and("q").to(this::listDocuments))
                .get(BASE + "/documents/{id}", this::getDocument)
                .delete(BASE + "/documents/{id}", this::deleteDocument)
                .post(BASE + "/retrieve", QueryParameters.accept("trace").to(this::retrieve))
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
        IngestMode mode =
                QueryParameters.flag(req, SKIP_UNCHANGED)
                        ? IngestMode.SKIP_UNCHANGED
                        : IngestMode.REPLACE;
        DocumentView.Ingested answer = ingest(knowledge, ns, body, mode);
        // 200: nothing was written, the stored version stands; 201: a new version
        Json.send(res, answer.unchanged() ? 200 : 201, answer);
    }

    /**
     * {@code POST documents?skipUnchanged=true}: answer the stored version (200, {@code unchanged:
     * true}) without embedding when the document is stored already from the same input, the rule
     * {@code cairn ingest} uses locally, so a bulk ingest through a server run again (or resumed)
     * sends everything but embeds only what changed.
     */
    static final String SKIP_UNCHANGED = "skipUnchanged";

    /**
     * Parses and ingests a document body; shared by {@code POST documents} and the MCP {@code
     * ingest_document} tool so both apply the same size limit and front-matter rules.
     */
    public static DocumentView.Ingested ingest(
            KnowledgeBase knowledge, String ns, DocumentBody body) {
        return ingest(knowledge, ns, body, IngestMode.REPLACE);
    }

    private static DocumentView.Ingested ingest(
            KnowledgeBase knowledge, String ns, DocumentBody body, IngestMode mode) {
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
        IngestResult result = knowledge.ingest(ns, overrides(parsed, body), mode);
        return new DocumentView.Ingested(
                result.id(), result.version(), result.chunks(), result.unchanged());
    }

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
                                        value == null
                                                ? "null"
                                                : value.isTextual()
                                                        ? value.asText()
                                                        : value.toString()));
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
                Paging.answer(
                        knowledge.documents().documents(ns, Paging.pageRequest(req), q),
                        KnowledgeViews::document));
    }

    private void getDocument(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("id");
        StoredDocument document =
                knowledge
                        .documents()
                        .document(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "document '" + id + "' does not exist"));
        Json.send(res, 200, KnowledgeViews.detail(document, knowledge.documents().chunks(ns, id)));
    }

    private void deleteDocument(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        String id = req.path().pathParameters().get("id");
        if (!knowledge.delete(ns, id)) {
            throw new NoSuchElementException("document '" + id + "' does not exist");
        }
        res.status(204).send();
    }

    // ---- retrieve ----------------------------------------------------------------------

    private void retrieve(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        RetrieveBody body = RequestBodies.read(req, maxBodyBytes, RetrieveBody.class);
        boolean withTrace = QueryParameters.flag(req, "trace") || body.trace();
        RetrieveResult result = knowledge.retrieve(ns, LibraryRequests.retrieve(body));
        if (result.partial()) {
            MetricsFilter.markPartial(req);
        }
        Json.send(res, 200, KnowledgeViews.retrieve(result, withTrace));
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
        Json.send(res, 200, TraceView.of(trace));
    }
}
