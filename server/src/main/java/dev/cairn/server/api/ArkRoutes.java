package dev.cairn.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.agents.conversation.ConversationHistory;
import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.conversation.MessageFilter;
import dev.cairn.agents.conversation.MessagePage;
import dev.cairn.agents.conversation.MessageWatch;
import dev.cairn.agents.conversation.StoredMessage;
import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.api.view.ArkAnswers;
import dev.cairn.server.auth.Principal;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.ErrorEnvelope;
import dev.cairn.server.http.EventStream;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.LogText;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RateLimiter;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/**
 * ARK's Memory API at {@code /ark/{ns}} (see API.md, "Conversations"): snake_case fields, 201 on
 * conversation create, messages stored as sent (after write safety and redaction), offset paging
 * with {@code nextCursor} as a string, and ARK's error envelope ({@link ErrorEnvelope#ARK}). Reads
 * need the {@code read} role on the namespace, writes {@code write}. Thread-safe.
 *
 * <p>Why about 510 lines: it is ARK's whole Memory API, a dozen routes whose shapes follow ARK's Go
 * client (snake_case fields, offset paging, its error envelope, the watch stream), kept in one file
 * so that what ARK sees is read in one place; the work behind each route is the conversation
 * repository's and the memory service's.
 */
public final class ArkRoutes implements HttpService {

    /** Default page size of {@code GET /messages}, as ARK's broker. */
    public static final int DEFAULT_LIMIT = 100;

    /** Largest page of {@code GET /messages}. */
    public static final int MAX_LIMIT = 1000;

    /**
     * How long a message watch stays silent before it sends a {@code : heartbeat} comment. The
     * broker sends one every 30 s; Cairn sends them this often because a write is how the server
     * learns that a client left: the first write after the client closed still succeeds (the peer's
     * kernel answers it with a reset) and the second fails, so a closed watch gives its slot back
     * within two heartbeats, about 2 s (with 30 s, it held one of the namespace's 32 for a minute).
     * SSE clients ignore comments, and 13 bytes a second cost nothing.
     */
    public static final Duration HEARTBEAT = Duration.ofSeconds(1);

    /** The header of a history read that left messages out: how many. */
    public static final String HISTORY_OMITTED_HEADER = "X-Cairn-History-Omitted";

    /** Where the routes are mounted: {@code /ark/{ns}/...}, the address an ARK Memory names. */
    public static final String MOUNT = "/ark";

    private static final System.Logger LOG = System.getLogger(ArkRoutes.class.getName());

    private final RateLimiter createLimiter;
    private final Store store;
    private final Transcripts transcripts;
    private final long maxBodyBytes;
    private final ArkSettings settings;

    public ArkRoutes(
            Store store, Transcripts transcripts, long maxBodyBytes, ArkSettings settings) {
        this.store = store;
        this.transcripts = transcripts;
        this.maxBodyBytes = maxBodyBytes;
        this.settings = settings;
        this.createLimiter = new RateLimiter(settings.createBurst(), settings.createsPerSecond());
    }

    @Override
    public void routing(HttpRules rules) {
        String base = MOUNT + "/{ns}";
        rules.get(base + "/health", ArkRoutes::health)
                .head(base + "/health", ArkRoutes::health)
                .post(base + "/conversations", this::createConversation)
                .get(base + "/conversations", this::listConversations)
                .delete(base + "/conversations", this::purge)
                .delete(base + "/messages", this::purge)
                .get(base + "/memory-status", this::memoryStatus)
                .get(base + "/conversations/{id}", this::getConversation)
                .delete(base + "/conversations/{id}", this::deleteConversation)
                .delete(base + "/conversations/{cid}/queries/{qid}/messages", this::deleteQuery)
                .delete(base + "/queries/{qid}/messages", this::deleteQueryEverywhere)
                .post(base + "/messages", this::addMessages)
                .get(
                        base + "/messages",
                        QueryParameters.accept(
                                        "conversation_id", "query_id", "cursor", "limit", "watch")
                                .to(this::listMessages));
        Routes.methodNotAllowed(
                rules,
                base + "/health",
                base + "/conversations",
                base + "/conversations/{id}",
                base + "/conversations/{cid}/queries/{qid}/messages",
                base + "/queries/{qid}/messages",
                base + "/messages",
                base + "/memory-status");
    }

    private static void health(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
        res.send("OK");
    }

    private ConversationRepository repository() {
        return transcripts.repository();
    }

    /**
     * Open (ARK's client sends no headers on this call) and storing nothing: it only hands out a
     * UUID, and the conversation comes to exist with its first message (which needs a token). It
     * does not check the namespace, so it tells an anonymous caller nothing. Rate limited per
     * caller ({@link ArkSettings#createBurst()} at once, {@link ArkSettings#createsPerSecond()}
     * after): a caller with a token (which needs {@code write} on the namespace) per token and
     * namespace; an anonymous one, as ARK's controller is, per client address, whatever the
     * namespace in the path, so made-up namespaces cannot multiply an anonymous caller's limit.
     */
    private void createConversation(ServerRequest req, ServerResponse res) {
        String namespace = req.path().pathParameters().get("ns");
        Optional<Principal> caller = req.context().get(Principal.class);
        caller.ifPresent(p -> p.require(Role.WRITE, namespace));
        String key =
                caller.map(p -> "token " + p.token().name() + " on " + namespace)
                        .orElseGet(() -> "address " + clientAddress(req));
        RateLimiter.Admission admission = createLimiter.tryAcquire(key);
        if (!admission.granted()) {
            res.header(HeaderNames.RETRY_AFTER, Long.toString(admission.retryAfterSeconds()));
            throw new HttpProblem(
                    429,
                    ErrorEnvelope.BAD_REQUEST,
                    "too many conversation creates from this "
                            + (caller.isPresent()
                                    ? "token on namespace '" + namespace + "'"
                                    : "address")
                            + " (at most "
                            + createLimiter.capacity()
                            + " at once, "
                            + java.math.BigDecimal.valueOf(createLimiter.perSecond())
                                    .stripTrailingZeros()
                                    .toPlainString()
                            + " per second; cairn.ark.create-burst and"
                            + " cairn.ark.creates-per-second)");
        }
        // ARK sends Content-Type: application/json with no body; any body is ignored.
        Json.send(res, 201, new ArkAnswers.Created(UUID.randomUUID().toString()));
    }

    private static String clientAddress(ServerRequest req) {
        try {
            return req.remotePeer().address() instanceof InetSocketAddress inet
                            && inet.getAddress() != null
                    ? inet.getAddress().getHostAddress()
                    : req.remotePeer().host();
        } catch (RuntimeException e) {
            // An in-process connection (the routing tests' direct client) has no peer address:
            // they all share one bucket.
            return "";
        }
    }

    private void listConversations(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        Json.send(res, 200, new ArkAnswers.Conversations(repository().conversations(ns)));
    }

    /** The conversation's history, bounded as {@link #history} bounds it; 404 when it is empty. */
    private void getConversation(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        String id = req.path().pathParameters().get("id");
        ConversationHistory history = history(res, ns, id);
        if (history.messages().isEmpty()) {
            throw new NoSuchElementException("conversation '" + id + "' has no messages");
        }
        Json.send(
                res,
                200,
                new ArkAnswers.Conversation(
                        id, history.messages().stream().map(ArkRoutes::message).toList()));
    }

    /**
     * A conversation as ARK's controller reads it (once, without paging, all of it sent to the
     * model): every message up to {@link ArkSettings#historyMessages()}; past it the first system
     * message and the newest messages ({@link ConversationRepository#history}), so new turns are
     * never the ones lost. A cut history says how many messages it left out in {@link
     * #HISTORY_OMITTED_HEADER} and in one log line.
     */
    private ConversationHistory history(ServerResponse res, String ns, String conversationId) {
        ConversationHistory history =
                repository().history(ns, conversationId, settings.historyMessages());
        if (history.windowed()) {
            res.header(HISTORY_OMITTED_HEADER, Long.toString(history.omitted()));
            LOG.log(
                    System.Logger.Level.INFO,
                    "ARK history of conversation '"
                            + LogText.escape(conversationId)
                            + "' in namespace "
                            + ns
                            + ": "
                            + history.total()
                            + " messages, more than cairn.ark.history-messages ("
                            + settings.historyMessages()
                            + "); answered the first system message and the newest, left out "
                            + history.omitted());
        }
        return history;
    }

    private void deleteConversation(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        String id = req.path().pathParameters().get("id");
        int n = transcripts.deleteConversation(ns, id);
        success(res, "deleted conversation " + id + " (" + n + " messages)");
    }

    private void deleteQuery(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        String cid = req.path().pathParameters().get("cid");
        String qid = req.path().pathParameters().get("qid");
        int n = transcripts.deleteQueryMessages(ns, cid, qid);
        success(res, "deleted " + n + " messages of query " + qid + " in conversation " + cid);
    }

    private void deleteQueryEverywhere(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        String qid = req.path().pathParameters().get("qid");
        int n = transcripts.deleteQueryMessages(ns, "", qid);
        success(res, "deleted " + n + " messages of query " + qid);
    }

    /** {@code DELETE /messages} and {@code DELETE /conversations}: every conversation goes. */
    private void purge(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        int n = transcripts.deleteAll(ns);
        success(res, "purged all conversations and " + n + " messages of namespace " + ns);
    }

    private void memoryStatus(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        java.util.Map<String, ArkAnswers.ConversationStatus> conversations =
                new java.util.LinkedHashMap<>();
        long messages = 0;
        for (var e : repository().counts(ns).entrySet()) {
            conversations.put(
                    e.getKey(),
                    new ArkAnswers.ConversationStatus(
                            e.getValue().messageCount(), e.getValue().queryCount()));
            messages += e.getValue().messageCount();
        }
        Json.send(
                res,
                200,
                new ArkAnswers.MemoryStatus(conversations.size(), messages, conversations));
    }

    /** A stored message as ARK shows it: the JSON as it was sent (secrets redacted). */
    static ArkAnswers.Message message(StoredMessage m) {
        JsonNode message;
        try {
            message = Json.MAPPER.readTree(m.json());
        } catch (IOException e) {
            throw new UncheckedIOException("stored message " + m.sequence() + " is not JSON", e);
        }
        return new ArkAnswers.Message(
                m.createdAt().toString(),
                m.conversationId(),
                m.queryId(),
                message,
                m.sequence(),
                m.flags());
    }

    private static void success(ServerResponse res, String message) {
        Json.send(res, 200, ArkAnswers.Success.of(message));
    }

    private void addMessages(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        ObjectNode body = readObject(req);
        String conversationId = requiredString(body, "conversation_id");
        String queryId = requiredString(body, "query_id");
        JsonNode messages = body.get("messages");
        if (messages == null || messages.isNull()) {
            throw validation("field 'messages' is required");
        }
        if (!messages.isArray()) {
            throw validation("field 'messages' must be an array");
        }
        Duration ttl = Duration.ZERO;
        JsonNode ttlNode = body.get("ttl_seconds");
        if (ttlNode != null && !ttlNode.isNull()) {
            long max = ConversationRepository.MAX_TTL.toSeconds();
            if (!ttlNode.isIntegralNumber()
                    || !ttlNode.canConvertToLong()
                    || ttlNode.asLong() < 0
                    || ttlNode.asLong() > max) {
                throw validation(
                        "field 'ttl_seconds' must be an integer in [0, " + max + "] (10 years)");
            }
            ttl = Duration.ofSeconds(ttlNode.asLong());
        }
        List<JsonNode> list = new ArrayList<>();
        ((ArrayNode) messages).forEach(list::add);
        transcripts.append(ns, conversationId, queryId, list, ttl);
        res.status(200).send();
    }

    /**
     * {@code cursor} is a sequence number (items after it), so a page stays right while messages
     * are appended or deleted; {@code nextCursor} is the last item's sequence, as a string since
     * ARK's client decodes it into a {@code *string}. A read of one conversation with neither
     * {@code limit}, {@code cursor} nor {@code query_id} is ARK's controller reading its history:
     * it gets the {@link #history} ({@code total} counts every message, {@code hasMore} is false,
     * as nothing newer follows). With {@code cursor} and without {@code limit}, one conversation
     * pages by {@link ConversationRepository#MAX_READ}.
     */
    private void listMessages(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        String watchParam = req.query().first("watch").orElse("false");
        if (!watchParam.equals("true") && !watchParam.equals("false")) {
            throw validation("query parameter 'watch' must be true or false");
        }
        if (watchParam.equals("true")) {
            watch(req, res, ns);
            return;
        }
        long cursor = pagingParam(req, "cursor", 0, 0, Long.MAX_VALUE);
        MessageFilter filter =
                new MessageFilter(
                        req.query().first("conversation_id").orElse(""),
                        req.query().first("query_id").orElse(""));
        if (!filter.conversationId().isEmpty()
                && filter.queryId().isEmpty()
                && absent(req, "limit")
                && absent(req, "cursor")) {
            ConversationHistory history = history(res, ns, filter.conversationId());
            Json.send(
                    res,
                    200,
                    new ArkAnswers.Messages(
                            history.messages().stream().map(ArkRoutes::message).toList(),
                            history.total(),
                            false,
                            null));
            return;
        }
        int defaultLimit =
                filter.conversationId().isEmpty() ? DEFAULT_LIMIT : ConversationRepository.MAX_READ;
        int limit = (int) pagingParam(req, "limit", defaultLimit, 1, MAX_LIMIT);
        MessagePage page = repository().messagesAfter(ns, filter, cursor, limit);
        boolean more = page.hasMore() && !page.items().isEmpty();
        Json.send(
                res,
                200,
                new ArkAnswers.Messages(
                        page.items().stream().map(ArkRoutes::message).toList(),
                        page.total(),
                        more,
                        more ? Long.toString(page.items().getLast().sequence()) : null));
    }

    /**
     * {@code GET /messages?watch=true}, as the broker streams: a {@code : connected} comment, then
     * with {@code cursor} every message after that sequence (of {@code conversation_id} when
     * given), then each message as it is appended, one {@code data:} event of the broker's item
     * JSON each, and a {@code : heartbeat} comment after every {@link #HEARTBEAT} without a write.
     * New messages are announced by the transcripts' {@link MessageWatch} (the store's change log);
     * the watch ends when a write finds the client gone, so the heartbeat bounds how long a closed
     * watch holds its slot. At most {@link MessageWatch#MAX_WATCHERS_PER_NAMESPACE} watches per
     * namespace (429 past it).
     */
    private void watch(ServerRequest req, ServerResponse res, String ns) {
        boolean replay = req.query().first("cursor").filter(c -> !c.isBlank()).isPresent();
        long cursor = pagingParam(req, "cursor", 0, 0, Long.MAX_VALUE);
        MessageFilter filter =
                new MessageFilter(req.query().first("conversation_id").orElse(""), "");
        MessageWatch.Watcher watcher =
                transcripts
                        .watch()
                        .open(ns)
                        .orElseThrow(
                                () -> {
                                    res.header(HeaderNames.RETRY_AFTER, "5");
                                    return new HttpProblem(
                                            429,
                                            ErrorEnvelope.BAD_REQUEST,
                                            "namespace '"
                                                    + ns
                                                    + "' has "
                                                    + MessageWatch.MAX_WATCHERS_PER_NAMESPACE
                                                    + " message watches open already");
                                });
        // Registered before the starting point is read, so no append falls in between.
        long after = replay ? cursor : repository().lastSequence(ns);
        try (watcher;
                EventStream out = EventStream.open(res)) {
            out.comment("connected");
            long lastWrite = System.nanoTime();
            while (!watcher.ended()) {
                long sent = sendAfter(out, ns, filter, after);
                if (sent != after) {
                    after = sent;
                    lastWrite = System.nanoTime();
                }
                // Appends to other conversations wake the watch without writing to it: the
                // heartbeat is due after HEARTBEAT without a write, whatever woke it meanwhile.
                long untilHeartbeat = HEARTBEAT.toNanos() - (System.nanoTime() - lastWrite);
                if (untilHeartbeat <= 0) {
                    out.comment("heartbeat");
                    lastWrite = System.nanoTime();
                } else {
                    watcher.awaitAppend(Duration.ofNanos(untilHeartbeat));
                }
            }
        } catch (IOException e) {
            // The client went away: the watch is over.
        } catch (InterruptedException e) {
            // The server is stopping.
            Thread.currentThread().interrupt();
        }
    }

    /** Sends every message after {@code after}; answers the last sequence sent. */
    private long sendAfter(EventStream out, String ns, MessageFilter filter, long after)
            throws IOException {
        MessagePage page;
        do {
            page = repository().messagesAfter(ns, filter, after, ConversationRepository.MAX_READ);
            for (StoredMessage m : page.items()) {
                out.data(Json.MAPPER.writeValueAsString(message(m)));
                after = m.sequence();
            }
        } while (page.hasMore() && !page.items().isEmpty());
        return after;
    }

    private static boolean absent(ServerRequest req, String name) {
        return req.query().first(name).filter(v -> !v.isBlank()).isEmpty();
    }

    private static long pagingParam(
            ServerRequest req, String name, long defaultValue, long min, long max) {
        var raw = req.query().first(name);
        if (raw.isEmpty() || raw.get().isBlank()) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(raw.get().strip());
        } catch (NumberFormatException e) {
            value = Long.MIN_VALUE;
        }
        if (value < min || value > max) {
            throw new HttpProblem(
                    400,
                    ErrorEnvelope.PAGINATION_ERROR,
                    "query parameter '"
                            + name
                            + "' must be an integer in ["
                            + min
                            + ", "
                            + max
                            + "], got '"
                            + raw.get()
                            + "'");
        }
        return value;
    }

    private ObjectNode readObject(ServerRequest req) {
        try {
            return RequestBodies.readObject(req, maxBodyBytes);
        } catch (IllegalArgumentException e) {
            throw new HttpProblem(400, ErrorEnvelope.BAD_REQUEST, e.getMessage());
        }
    }

    private static String requiredString(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull() || (node.isTextual() && node.asText().isBlank())) {
            throw validation("field '" + field + "' is required");
        }
        if (!node.isTextual()) {
            throw validation("field '" + field + "' must be a string");
        }
        return node.asText();
    }

    private static HttpProblem validation(String detail) {
        return new HttpProblem(400, ErrorEnvelope.VALIDATION_ERROR, detail);
    }
}
