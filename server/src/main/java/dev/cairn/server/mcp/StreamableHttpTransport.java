package dev.cairn.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Principal;
import dev.cairn.server.http.EventStream;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.publisher.Mono;

/**
 * The MCP SDK's streamable HTTP transport on Helidon SE, mounted at {@code /mcp/{ns}}. The SDK only
 * ships a servlet binding, and Helidon SE has no servlets, so this class does the HTTP part
 * (methods, headers, SSE framing) and hands every JSON-RPC message to the SDK's {@link
 * McpStreamableServerSession}, which owns the protocol: initialization, sessions, request dispatch,
 * notifications and cancellation. Handlers run on Helidon's virtual threads, so blocking on the
 * SDK's monos is cheap. Thread-safe.
 */
public final class StreamableHttpTransport
        implements McpStreamableServerTransportProvider, HttpService {

    static final String PATH = "/mcp/{ns}";
    private static final String SSE = EventStream.MEDIA_TYPE;
    private static final String JSON = "application/json";

    private final McpJsonMapper mapper;
    private final long maxBodyBytes;
    private final Map<String, McpStreamableServerSession> sessions = new ConcurrentHashMap<>();
    // A session belongs to the namespace it was initialized on; a request on another path is 404.
    private final Map<String, String> sessionNamespaces = new ConcurrentHashMap<>();
    private volatile McpStreamableServerSession.Factory sessionFactory;
    private volatile boolean closing;

    public StreamableHttpTransport(McpJsonMapper mapper, long maxBodyBytes) {
        this.mapper = mapper;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public List<String> protocolVersions() {
        return List.of(
                ProtocolVersions.MCP_2024_11_05,
                ProtocolVersions.MCP_2025_03_26,
                ProtocolVersions.MCP_2025_06_18,
                ProtocolVersions.MCP_2025_11_25);
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
        this.sessionFactory = sessionFactory;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Mono.fromRunnable(
                () -> sessions.values().forEach(s -> s.sendNotification(method, params).block()));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(
                () -> {
                    closing = true;
                    sessions.values().forEach(s -> s.closeGracefully().block());
                    sessions.clear();
                    sessionNamespaces.clear();
                });
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(PATH, this::post).get(PATH, this::get).delete(PATH, this::delete);
    }

    /** What the tools need to know about the request that called them. */
    static McpTransportContext context(ServerRequest req) {
        Principal principal = AuthFilter.principal(req);
        String ns = req.path().pathParameters().get("ns");
        return McpTransportContext.create(
                Map.of(CairnMcp.NAMESPACE, ns, CairnMcp.PRINCIPAL, principal));
    }

    private void post(ServerRequest req, ServerResponse res) {
        if (closing) {
            error(res, 503, McpSchema.ErrorCodes.INTERNAL_ERROR, "server is shutting down");
            return;
        }
        String accept = req.headers().first(HeaderNames.ACCEPT).orElse("");
        if (!accept.contains(SSE) || !accept.contains(JSON)) {
            error(
                    res,
                    400,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Accept must list both application/json and text/event-stream");
            return;
        }
        McpTransportContext context = context(req);
        McpSchema.JSONRPCMessage message;
        byte[] body;
        try {
            body = Json.readBody(req, maxBodyBytes);
            // Cairn's words for what is wrong, never the SDK's ("null IDs are not allowed")
            ObjectNode envelope = RequestBodies.parseObject(body);
            String problem = envelopeProblem(envelope);
            if (problem != null) {
                error(res, 400, McpSchema.ErrorCodes.INVALID_REQUEST, problem);
                return;
            }
        } catch (IllegalArgumentException e) {
            error(res, 400, McpSchema.ErrorCodes.PARSE_ERROR, e.getMessage());
            return;
        }
        try {
            message =
                    McpSchema.deserializeJsonRpcMessage(
                            mapper, new String(body, StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            error(
                    res,
                    400,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "not a JSON-RPC 2.0 request, notification or response");
            return;
        }
        if (message instanceof McpSchema.JSONRPCRequest request
                && request.method().equals(McpSchema.METHOD_INITIALIZE)) {
            initialize(req, res, request);
            return;
        }
        McpStreamableServerSession session = session(req, res);
        if (session == null) {
            return;
        }
        switch (message) {
            case McpSchema.JSONRPCResponse response -> {
                session.accept(response)
                        .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                        .block();
                res.status(Status.ACCEPTED_202).send();
            }
            case McpSchema.JSONRPCNotification notification -> {
                session.accept(notification)
                        .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                        .block();
                res.status(Status.ACCEPTED_202).send();
            }
            case McpSchema.JSONRPCRequest request -> {
                SseStream stream = SseStream.open(res, session.getId(), this);
                try {
                    session.responseStream(request, stream)
                            .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                            .block();
                } finally {
                    stream.close();
                }
            }
            default ->
                    error(res, 400, McpSchema.ErrorCodes.INVALID_REQUEST, "unknown message type");
        }
    }

    /**
     * What makes {@code envelope} no JSON-RPC 2.0 message MCP accepts, in plain words; null when it
     * is one. MCP, unlike plain JSON-RPC, does not allow a null id.
     */
    static String envelopeProblem(ObjectNode envelope) {
        JsonNode version = envelope.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.asText().equals("2.0")) {
            return "a JSON-RPC message needs \"jsonrpc\": \"2.0\"";
        }
        JsonNode id = envelope.get("id");
        if (id != null && !id.isTextual() && !id.isIntegralNumber()) {
            return "the message's \"id\" must be a string or an integer, not "
                    + (id.isNull() ? "null" : id.getNodeType().toString().toLowerCase(Locale.ROOT));
        }
        JsonNode method = envelope.get("method");
        if (method != null) {
            return method.isTextual() && !method.asText().isEmpty()
                    ? null
                    : "the message's \"method\" must be a non-empty string";
        }
        if (id == null) {
            return "a JSON-RPC message needs a \"method\" (a request or notification) or an"
                    + " \"id\" with a \"result\" or an \"error\" (a response)";
        }
        if (envelope.has("result") == envelope.has("error")) {
            return "a JSON-RPC response has either a \"result\" or an \"error\"";
        }
        return null;
    }

    private void initialize(
            ServerRequest req, ServerResponse res, McpSchema.JSONRPCRequest request) {
        McpSchema.InitializeRequest params =
                mapper.convertValue(
                        request.params(), new TypeRef<McpSchema.InitializeRequest>() {});
        var init = sessionFactory.startSession(params);
        String id = init.session().getId();
        sessions.put(id, init.session());
        sessionNamespaces.put(id, req.path().pathParameters().get("ns"));
        McpSchema.InitializeResult result = init.initResult().block();
        res.header(HeaderNames.create(HttpHeaders.MCP_SESSION_ID), id);
        res.header(HeaderNames.CONTENT_TYPE, JSON);
        res.status(Status.OK_200);
        res.send(
                write(
                        new McpSchema.JSONRPCResponse(
                                McpSchema.JSONRPC_VERSION, request.id(), result, null)));
    }

    /** A listening stream for server-initiated messages; it stays open until the client leaves. */
    private void get(ServerRequest req, ServerResponse res) {
        String accept = req.headers().first(HeaderNames.ACCEPT).orElse("");
        if (!accept.contains(SSE)) {
            error(
                    res,
                    400,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Accept must list text/event-stream");
            return;
        }
        McpStreamableServerSession session = session(req, res);
        if (session == null) {
            return;
        }
        McpTransportContext context = context(req);
        SseStream stream = SseStream.open(res, session.getId(), this);
        String lastEventId =
                req.headers().first(HeaderNames.create(HttpHeaders.LAST_EVENT_ID)).orElse(null);
        if (lastEventId != null) {
            session.replay(lastEventId)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                    .toIterable()
                    .forEach(m -> stream.sendMessage(m).block());
            stream.close();
            return;
        }
        var listening = session.listeningStream(stream);
        // the status and headers go now, not with the first server message, which may never come:
        // a client knows its stream is open, and one that left is found by this write or the next
        stream.greet();
        stream.awaitClose();
        listening.close();
    }

    private void delete(ServerRequest req, ServerResponse res) {
        McpStreamableServerSession session = session(req, res);
        if (session == null) {
            return;
        }
        session.delete().contextWrite(c -> c.put(McpTransportContext.KEY, context(req))).block();
        sessions.remove(session.getId());
        sessionNamespaces.remove(session.getId());
        res.status(Status.OK_200).send();
    }

    /** The request's session, or null after answering 400 (no id) or 404 (unknown or other ns). */
    private McpStreamableServerSession session(ServerRequest req, ServerResponse res) {
        String id = req.headers().first(HeaderNames.create(HttpHeaders.MCP_SESSION_ID)).orElse("");
        if (id.isBlank()) {
            error(res, 400, McpSchema.ErrorCodes.INVALID_REQUEST, "missing Mcp-Session-Id header");
            return null;
        }
        McpStreamableServerSession session = sessions.get(id);
        if (session == null
                || !req.path().pathParameters().get("ns").equals(sessionNamespaces.get(id))) {
            error(
                    res,
                    404,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "unknown MCP session '" + id + "'");
            return null;
        }
        return session;
    }

    void forget(String sessionId) {
        sessions.remove(sessionId);
        sessionNamespaces.remove(sessionId);
    }

    /**
     * A JSON-RPC error answer with a null id (the request's id is unknown or unusable), written
     * here: the SDK's response record refuses a null id, which turned every such answer into a
     * problem detail carrying the SDK's "null IDs are not allowed".
     */
    private void error(ServerResponse res, int status, int code, String message) {
        ObjectNode answer = Json.MAPPER.createObjectNode();
        answer.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        answer.putNull("id");
        answer.putObject("error").put("code", code).put("message", message);
        res.status(Status.create(status));
        res.header(HeaderNames.CONTENT_TYPE, JSON);
        res.send(Json.bytes(answer));
    }

    byte[] write(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One SSE response body carrying JSON-RPC messages as {@code message} events. */
    static final class SseStream implements McpStreamableServerTransport {

        private final EventStream out;
        private final String sessionId;
        private final StreamableHttpTransport owner;
        private final ReentrantLock lock = new ReentrantLock();
        private final CompletableFuture<Void> closed = new CompletableFuture<>();

        private SseStream(EventStream out, String sessionId, StreamableHttpTransport owner) {
            this.out = out;
            this.sessionId = sessionId;
            this.owner = owner;
        }

        static SseStream open(ServerResponse res, String sessionId, StreamableHttpTransport owner) {
            return new SseStream(EventStream.open(res), sessionId, owner);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return sendMessage(message, null);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
            return Mono.fromRunnable(
                    () -> {
                        lock.lock();
                        try {
                            if (closed.isDone()) {
                                return;
                            }
                            String data = new String(owner.write(message), StandardCharsets.UTF_8);
                            out.event(messageId != null ? messageId : sessionId, "message", data);
                        } catch (IOException | UncheckedIOException e) {
                            // The client went away: the stream is over, the session may resume.
                            close();
                        } finally {
                            lock.unlock();
                        }
                    });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return owner.mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(this::close);
        }

        @Override
        public void close() {
            lock.lock();
            try {
                if (closed.isDone()) {
                    return;
                }
                closed.complete(null);
                out.close();
            } finally {
                lock.unlock();
            }
        }

        void awaitClose() {
            closed.join();
        }

        /** A comment line, which clients ignore: it sends the answer's head at once. */
        void greet() {
            lock.lock();
            try {
                if (!closed.isDone()) {
                    out.comment("listening");
                }
            } catch (IOException | UncheckedIOException e) {
                close();
            } finally {
                lock.unlock();
            }
        }
    }
}
