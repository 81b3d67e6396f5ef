package dev.cairn.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.agents.kv.KeyValueEntry;
import dev.cairn.agents.kv.KeyValueMemory;
import dev.cairn.agents.kv.KeyValueSearch;
import dev.cairn.server.api.view.KeyValueAnswers;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.ErrorEnvelope;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/**
 * Orloj's HTTP memory provider at {@code /orloj/{ns}} (API.md, "Key/value memory"): put, get,
 * hybrid search, list by prefix and ping over {@link KeyValueMemory}, bearer auth, errors as {@code
 * {"error": "..."}} ({@link ErrorEnvelope#ORLOJ}). Values up to {@link
 * KeyValueMemory#MAX_VALUE_BYTES} (413 past it); a value the write-path scanner flags is stored and
 * answered {@code flagged: true} but never by search, which counts such matches in {@link
 * #WITHHELD_HEADER}; search clamps {@code top_k} to {@link #MAX_TOP_K} (saying so in {@link
 * #TOP_K_CLAMPED_HEADER}) and scores 0..1; list returns every entry. Thread-safe.
 */
public final class OrlojRoutes implements HttpService {

    /** Default {@code top_k} of search. */
    public static final int DEFAULT_TOP_K = 10;

    /** Largest {@code top_k} of search; a larger one is clamped to it. */
    public static final int MAX_TOP_K = KeyValueMemory.MAX_LIMIT;

    /** Response header of a search whose {@code top_k} was clamped, carrying the value used. */
    public static final String TOP_K_CLAMPED_HEADER = "X-Cairn-Top-K-Clamped";

    /**
     * Response header of every search: how many matching entries were left out because write safety
     * flagged them (they are stored, and answered by {@code get} and {@code list}).
     */
    public static final String WITHHELD_HEADER = "X-Cairn-Withheld-Flagged";

    private final Store store;
    private final KeyValueMemory memory;
    private final long maxBodyBytes;

    public OrlojRoutes(Store store, KeyValueMemory memory, long maxBodyBytes) {
        this.store = store;
        this.memory = memory;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        String base = "/orloj/{ns}";
        rules.post(base + "/put", this::put)
                .post(base + "/get", this::get)
                .post(base + "/search", this::search)
                .post(base + "/list", this::list)
                .get(base + "/ping", this::ping);
        Routes.methodNotAllowed(
                rules,
                base + "/put",
                base + "/get",
                base + "/search",
                base + "/list",
                base + "/ping");
    }

    private void put(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        ObjectNode body = RequestBodies.readObject(req, maxBodyBytes);
        String key = Fields.requiredText(body, "key");
        JsonNode value = body.get("value");
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("field 'value' is required");
        }
        KeyValueEntry entry =
                memory.put(ns, key, value.isTextual() ? value.asText() : value.toString());
        Json.send(
                res,
                200,
                entry.flagged() ? KeyValueAnswers.StoredFlagged.OK : KeyValueAnswers.Status.OK);
    }

    private void get(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        ObjectNode body = RequestBodies.readObject(req, maxBodyBytes);
        String key = Fields.requiredText(body, "key");
        Optional<KeyValueEntry> entry = memory.get(ns, key);
        if (entry.isPresent() && entry.get().flagged()) {
            Json.send(
                    res,
                    200,
                    new KeyValueAnswers.FoundFlagged(true, key, entry.get().value(), true));
            return;
        }
        Json.send(
                res,
                200,
                new KeyValueAnswers.Found(
                        entry.isPresent(), key, entry.map(KeyValueEntry::value).orElse("")));
    }

    private void search(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        ObjectNode body = RequestBodies.readObject(req, maxBodyBytes);
        String query = Fields.optionalText(body, "query").orElse("");
        int topK = intField(body, "top_k", DEFAULT_TOP_K);
        if (topK < 1) {
            throw new IllegalArgumentException("field 'top_k' must be >= 1, got " + topK);
        }
        if (topK > MAX_TOP_K) {
            topK = MAX_TOP_K;
            res.header(TOP_K_CLAMPED_HEADER, Integer.toString(MAX_TOP_K));
        }
        KeyValueSearch found = memory.search(ns, query, topK);
        res.header(WITHHELD_HEADER, Integer.toString(found.withheld()));
        Json.send(res, 200, KeyValueAnswers.Results.of(found));
    }

    private void list(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        ObjectNode body = RequestBodies.readObject(req, maxBodyBytes);
        String prefix = Fields.optionalText(body, "prefix").orElse("");
        Json.send(res, 200, KeyValueAnswers.Entries.of(memory.listAll(ns, prefix)));
    }

    private void ping(ServerRequest req, ServerResponse res) {
        NamespaceRoutes.requireNamespace(req, store, Role.READ);
        Json.send(res, 200, KeyValueAnswers.Status.OK);
    }

    private static int intField(ObjectNode body, String field, int defaultValue) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return defaultValue;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new IllegalArgumentException("field '" + field + "' must be an integer");
        }
        return node.asInt();
    }
}
