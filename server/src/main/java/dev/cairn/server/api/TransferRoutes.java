package dev.cairn.server.api;

import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestDeadlines;
import dev.cairn.server.http.Routes;
import dev.cairn.server.transfer.NamespaceExport;
import dev.cairn.server.transfer.NamespaceImport;
import dev.cairn.store.Namespace;
import dev.cairn.store.Store;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code GET /v1/namespaces/{ns}/export} streams the namespace's export file; {@code POST
 * /v1/namespaces/{ns}/import} reads one (admin, both). The import's body is kept in a temporary
 * file first: the import reads it twice, checking every line before writing any.
 */
public final class TransferRoutes implements HttpService {

    /** Largest import body: a namespace of some million memories with their vectors. */
    static final long MAX_IMPORT_BYTES = 8L << 30;

    private static final Set<String> IMPORT_SUBTYPES = Set.of("x-ndjson", "jsonl", "x-jsonlines");

    private final Store store;
    private final NamespaceExport export;
    private final NamespaceImport imports;

    public TransferRoutes(KnowledgeBase knowledge) {
        this.store = knowledge.store();
        this.export = new NamespaceExport(knowledge, Clock.systemUTC());
        this.imports = new NamespaceImport(knowledge);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/v1/namespaces/{ns}/export", this::export)
                .post("/v1/namespaces/{ns}/import", this::importFile);
        Routes.methodNotAllowed(rules, "/v1/namespaces/{ns}/export", "/v1/namespaces/{ns}/import");
    }

    private void export(ServerRequest req, ServerResponse res) throws IOException {
        String ns = Namespace.requireValidName(req.path().pathParameters().get("ns"));
        AuthFilter.principal(req).require(Role.ADMIN, ns);
        if (store.namespace(ns).isEmpty()) {
            throw new NoSuchElementException("namespace '" + ns + "' does not exist");
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/x-ndjson");
        res.header(
                HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"" + ns + ".cairn.jsonl\"");
        try (OutputStream out = res.outputStream()) {
            export.write(ns, out);
        }
    }

    private void importFile(ServerRequest req, ServerResponse res) throws IOException {
        String ns = Namespace.requireValidName(req.path().pathParameters().get("ns"));
        AuthFilter.principal(req).require(Role.ADMIN, ns);
        requireLinesContentType(req);
        Path spooled = Files.createTempFile("cairn-import-", ".jsonl");
        try {
            spool(req, spooled);
            Json.send(res, 200, imports.read(spooled, ns));
        } finally {
            Files.deleteIfExists(spooled);
        }
    }

    private static void spool(ServerRequest req, Path file) {
        if (!req.content().hasEntity()) {
            throw new IllegalArgumentException("the request body is empty; send an export file");
        }
        try (InputStream in = req.content().inputStream();
                OutputStream out = Files.newOutputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            long total = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
                if (total > MAX_IMPORT_BYTES) {
                    throw HttpProblem.payloadTooLarge(MAX_IMPORT_BYTES);
                }
                out.write(buffer, 0, n);
            }
        } catch (HttpProblem problem) {
            throw problem;
        } catch (IOException | RuntimeException e) {
            var timedOut = RequestDeadlines.bodyTimedOut(req);
            if (timedOut.isPresent()) {
                throw HttpProblem.requestTimeout(timedOut.get());
            }
            if (e instanceof IOException io && !(e instanceof java.io.EOFException)) {
                throw new UncheckedIOException("cannot keep the import body", io);
            }
            throw new IllegalArgumentException("the request body ended early");
        }
    }

    private static void requireLinesContentType(ServerRequest req) {
        HttpMediaType type;
        try {
            type = req.headers().contentType().orElse(null);
        } catch (RuntimeException e) {
            throw HttpProblem.unsupportedMediaType("unparsable");
        }
        if (type != null && !IMPORT_SUBTYPES.contains(type.mediaType().subtype())) {
            throw HttpProblem.unsupportedMediaType(type.text());
        }
    }
}
