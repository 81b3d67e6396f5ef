package dev.cairn.server.http;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.media.ReadableEntity;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Times every request's head and body, so that stalled and trickling clients cannot pile up:
 *
 * <ul>
 *   <li>A connection that has not completed its request head within the header timeout is closed: a
 *       client that opens a connection and sends nothing, half a request line, half its headers, or
 *       one byte every few seconds (slowloris) is let go.
 *   <li>A request whose body has not arrived in full within the body timeout after its head is
 *       answered 408 if its handler is reading the body (its input is shut, the read ends, {@link
 *       Json#readBody} answers 408), and its connection is closed a moment later either way (also
 *       when nobody reads the body, as while the web server drains a body its handler left unread).
 *       Before, a complete head followed by a stalled or trickled body held its connection for good
 *       (500 of 500 still open after 100 s).
 * </ul>
 *
 * <p>Why Cairn does this itself: the web server's socket read timeout is not applied to accepted
 * connections, and its idle-connection timeout interrupts a connection only while it waits for a
 * request line; a connection that has not sent a full first line is not tracked at all, one stalled
 * in its headers is marked for closing but never woken, and a body is read without any deadline. So
 * the deadlines are kept here: a connection gets a head deadline when it is accepted (through
 * {@link #watching}) and again when the request line of a later request on a kept-alive connection
 * arrives; the complete head replaces it with a body deadline when the request has a body, or
 * clears it. This class is also the routing filter that tells it, per request, when the body has
 * been read in full ({@link #filter}). A sweeper thread acts on every connection past its deadline.
 * Idle time between requests stays with the web server's idle timeout, which does reach connections
 * waiting for their next request line.
 *
 * <p>Thread-safe. {@link #close()} stops the sweeper.
 */
public final class RequestDeadlines implements Http1ConnectionListener, Filter, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RequestDeadlines.class.getName());

    /** No deadline: the connection is past its head and body (handling a request or idle). */
    private static final long NONE = 0;

    /** How long after its input is shut a timed-out body's connection is closed outright. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(1);

    /** Where a request's context keeps its connection's bookkeeping, for {@link #bodyTimedOut}. */
    private static final String CONTEXT_KEY = RequestDeadlines.class.getName();

    private final Duration headerTimeout;
    private final Duration bodyTimeout;
    private final Duration sweepPeriod;
    private final Map<SocketAddress, Watched> connections = new ConcurrentHashMap<>();
    private final AtomicLong closedForStalling = new AtomicLong();
    private final AtomicLong timedOutBodies = new AtomicLong();
    private final Thread sweeper;
    private volatile boolean running = true;

    /** What a connection's deadline is for. */
    private enum Phase {
        HEAD,
        BODY,
        /** The body timed out and the input is shut: the socket is closed at the deadline. */
        CLOSING
    }

    /** One open connection and when its head or body must be complete. */
    private static final class Watched {
        final Socket socket;
        volatile long deadlineNanos;
        volatile Phase phase = Phase.HEAD;

        /** The body of the request in progress, once the routing filter has seen it. */
        volatile ReadableEntity body;

        volatile boolean bodyTimedOut;

        Watched(Socket socket, long deadlineNanos) {
            this.socket = socket;
            this.deadlineNanos = deadlineNanos;
        }

        void expect(Phase next, long deadline) {
            phase = next;
            deadlineNanos = deadline;
        }
    }

    /**
     * @param headerTimeout how long a connection may take to send a complete request head
     * @param bodyTimeout how long a request's body may take to arrive after its head
     */
    public RequestDeadlines(Duration headerTimeout, Duration bodyTimeout) {
        requirePositive("header timeout", headerTimeout);
        requirePositive("body timeout", bodyTimeout);
        this.headerTimeout = headerTimeout;
        this.bodyTimeout = bodyTimeout;
        // a tenth of the shorter timeout, at most a second: a stalled client is let go at most
        // 10% late
        long shorter = Math.min(headerTimeout.toMillis(), bodyTimeout.toMillis());
        this.sweepPeriod = Duration.ofMillis(Math.clamp(shorter / 10, 10, 1000));
        this.sweeper =
                Thread.ofPlatform().name("cairn-request-deadlines").daemon().start(this::sweep);
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("illegal " + name + ": " + value + ", must be > 0");
        }
    }

    /**
     * The web server's connection options with one addition: every accepted connection is watched
     * from the moment it is accepted. (Accepting is the only point where the web server hands out
     * the socket; its protocol listeners see a connection only once its first line is complete.)
     */
    public SocketOptions watching(SocketOptions options) {
        return new WatchingOptions(options, this);
    }

    /** How many connections were closed because their head did not arrive in time. */
    public long closedForStalling() {
        return closedForStalling.get();
    }

    /** How many request bodies did not arrive in time (answered 408 or closed). */
    public long timedOutBodies() {
        return timedOutBodies.get();
    }

    /** How many accepted connections are open and watched (head pending or not). */
    public int watched() {
        return connections.size();
    }

    /**
     * The body timeout when {@code req}'s body did not arrive within it (its read then fails), for
     * an answer of 408 instead of a complaint about a short body.
     */
    public static Optional<Duration> bodyTimedOut(ServerRequest req) {
        return req.context()
                .get(CONTEXT_KEY, TimedBody.class)
                .filter(b -> b.watched().bodyTimedOut)
                .map(TimedBody::timeout);
    }

    /** What a request's context carries for {@link #bodyTimedOut}. */
    private record TimedBody(Watched watched, Duration timeout) {}

    void accepted(Socket socket) {
        SocketAddress peer = socket.getRemoteSocketAddress();
        if (peer != null) {
            connections.put(peer, new Watched(socket, deadline(headerTimeout)));
        }
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        // a later request on a kept-alive connection: its headers are due from now on
        Watched watched = connections.get(ctx.remotePeer().address());
        if (watched != null && watched.phase != Phase.CLOSING) {
            watched.body = null;
            watched.expect(Phase.HEAD, deadline(headerTimeout));
        }
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        Watched watched = connections.get(ctx.remotePeer().address());
        if (watched == null || watched.phase == Phase.CLOSING) {
            return;
        }
        if (hasBody(headers)) {
            watched.body = null;
            watched.expect(Phase.BODY, deadline(bodyTimeout));
        } else {
            watched.expect(Phase.HEAD, NONE);
        }
    }

    /** As the web server decides whether a request has an entity to read. */
    private static boolean hasBody(Headers headers) {
        if (headers.contains(HeaderValues.TRANSFER_ENCODING_CHUNKED)) {
            return true;
        }
        return headers.contains(HeaderNames.CONTENT_LENGTH)
                && !headers.get(HeaderNames.CONTENT_LENGTH).get().strip().equals("0");
    }

    /**
     * Tells the sweeper where this request's body is read, so that a body read in full ends its
     * deadline, and lets {@link #bodyTimedOut} find the connection. Runs first for every request.
     */
    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        Watched watched = connections.get(req.remotePeer().address());
        if (watched != null && watched.phase == Phase.BODY) {
            watched.body = req.content();
            req.context().register(CONTEXT_KEY, new TimedBody(watched, bodyTimeout));
        }
        chain.proceed();
    }

    private static long deadline(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        return deadline == NONE ? 1 : deadline;
    }

    private void sweep() {
        while (running) {
            try {
                Thread.sleep(sweepPeriod);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            int heads = 0;
            int bodies = 0;
            for (var entry : connections.entrySet()) {
                Watched watched = entry.getValue();
                long deadline = watched.deadlineNanos;
                if (watched.socket.isClosed()) {
                    connections.remove(entry.getKey(), watched);
                } else if (deadline != NONE && now - deadline > 0) {
                    switch (watched.phase) {
                        case HEAD -> {
                            connections.remove(entry.getKey(), watched);
                            closeQuietly(watched.socket);
                            heads++;
                        }
                        case BODY -> {
                            ReadableEntity body = watched.body;
                            if (body != null && body.consumed()) {
                                watched.expect(Phase.BODY, NONE); // read in full: the handler's
                            } else {
                                timeOutBody(watched);
                                bodies++;
                            }
                        }
                        case CLOSING -> {
                            connections.remove(entry.getKey(), watched);
                            closeQuietly(watched.socket);
                        }
                    }
                }
            }
            if (heads > 0) {
                closedForStalling.addAndGet(heads);
                LOG.log(
                        Level.INFO,
                        "closed "
                                + heads
                                + " connection(s) that sent no complete request head within "
                                + headerTimeout.toMillis()
                                + " ms");
            }
            if (bodies > 0) {
                timedOutBodies.addAndGet(bodies);
                LOG.log(
                        Level.INFO,
                        "timed out "
                                + bodies
                                + " request bod(ies) not complete within "
                                + bodyTimeout.toMillis()
                                + " ms of their head");
            }
        }
    }

    /**
     * Shuts the connection's input, so that a read of the body in progress ends and its handler can
     * still answer 408, and closes the socket {@link #CLOSE_GRACE} later.
     */
    private static void timeOutBody(Watched watched) {
        watched.bodyTimedOut = true;
        watched.expect(Phase.CLOSING, deadline(CLOSE_GRACE));
        try {
            watched.socket.shutdownInput();
        } catch (IOException | RuntimeException e) {
            closeQuietly(watched.socket); // no half-close here (TLS): closed at once
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // the client is gone either way
        }
    }

    @Override
    public void close() {
        running = false;
        sweeper.interrupt();
        connections.clear();
    }

    /**
     * The web server's own socket options, and every accepted socket handed to {@link
     * RequestDeadlines#accepted}. The web server calls {@link #configureSocket} once per accepted
     * connection, before it reads a byte.
     */
    private record WatchingOptions(SocketOptions delegate, RequestDeadlines deadlines)
            implements SocketOptions {

        WatchingOptions {
            Objects.requireNonNull(delegate, "delegate");
        }

        @Override
        public void configureSocket(Socket socket) {
            delegate.configureSocket(socket);
            deadlines.accepted(socket);
        }

        @Override
        public Map<SocketOption<?>, Object> socketOptions() {
            return delegate.socketOptions();
        }

        @Override
        public Duration connectTimeout() {
            return delegate.connectTimeout();
        }

        @Override
        public Duration readTimeout() {
            return delegate.readTimeout();
        }

        @Override
        public Optional<Integer> socketReceiveBufferSize() {
            return delegate.socketReceiveBufferSize();
        }

        @Override
        public Optional<Integer> socketSendBufferSize() {
            return delegate.socketSendBufferSize();
        }

        @Override
        public boolean socketReuseAddress() {
            return delegate.socketReuseAddress();
        }

        @Override
        public boolean socketKeepAlive() {
            return delegate.socketKeepAlive();
        }

        @Override
        public boolean tcpNoDelay() {
            return delegate.tcpNoDelay();
        }
    }
}
