package dev.cairn.server.http;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
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
 * Closes every connection that has not completed its request head within the header timeout: a
 * client that opens a connection and sends nothing, half a request line, half its headers, or one
 * byte every few seconds (slowloris) is let go, so such clients cannot pile up.
 *
 * <p>Why Cairn does this itself: the web server's socket read timeout is not applied to accepted
 * connections, and its idle-connection timeout interrupts a connection only while it waits for a
 * request line; a connection that has not sent a full first line is not tracked at all, and one
 * stalled in its headers is marked for closing but never woken. So the deadline is kept here: a
 * connection gets one when it is accepted (through {@link #watching}), and again when the request
 * line of a later request on a kept-alive connection arrives; the complete head clears it. A
 * sweeper thread closes the socket of every connection past its deadline, which ends the blocked
 * read and with it the connection. Idle time between requests stays with the web server's idle
 * timeout, which does reach connections waiting for their next request line.
 *
 * <p>Thread-safe. {@link #close()} stops the sweeper.
 */
public final class HeadDeadlines implements Http1ConnectionListener, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HeadDeadlines.class.getName());

    /** No deadline: the connection is past its head (handling a request or idle). */
    private static final long NONE = 0;

    private final Duration headerTimeout;
    private final Duration sweepPeriod;
    private final Map<SocketAddress, Watched> connections = new ConcurrentHashMap<>();
    private final AtomicLong closedForStalling = new AtomicLong();
    private final Thread sweeper;
    private volatile boolean running = true;

    /** One open connection and when its head must be complete ({@link #NONE} when it is). */
    private static final class Watched {
        final Socket socket;
        volatile long deadlineNanos;

        Watched(Socket socket, long deadlineNanos) {
            this.socket = socket;
            this.deadlineNanos = deadlineNanos;
        }
    }

    /**
     * @param headerTimeout how long a connection may take to send a complete request head
     */
    public HeadDeadlines(Duration headerTimeout) {
        if (headerTimeout.isNegative() || headerTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "illegal header timeout: " + headerTimeout + ", must be > 0");
        }
        this.headerTimeout = headerTimeout;
        // a tenth of the timeout, at most a second: a stalled client is closed at most 10% late
        this.sweepPeriod = Duration.ofMillis(Math.clamp(headerTimeout.toMillis() / 10, 10, 1000));
        this.sweeper = Thread.ofPlatform().name("cairn-head-deadlines").daemon().start(this::sweep);
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

    /** How many accepted connections are open and watched (head pending or not). */
    public int watched() {
        return connections.size();
    }

    void accepted(Socket socket) {
        SocketAddress peer = socket.getRemoteSocketAddress();
        if (peer != null) {
            connections.put(peer, new Watched(socket, deadline()));
        }
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        // a later request on a kept-alive connection: its headers are due from now on
        Watched watched = connections.get(ctx.remotePeer().address());
        if (watched != null && watched.deadlineNanos == NONE) {
            watched.deadlineNanos = deadline();
        }
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        Watched watched = connections.get(ctx.remotePeer().address());
        if (watched != null) {
            watched.deadlineNanos = NONE;
        }
    }

    private long deadline() {
        long deadline = System.nanoTime() + headerTimeout.toNanos();
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
            int closedNow = 0;
            for (var entry : connections.entrySet()) {
                Watched watched = entry.getValue();
                long deadline = watched.deadlineNanos;
                if (watched.socket.isClosed()) {
                    connections.remove(entry.getKey(), watched);
                } else if (deadline != NONE && now - deadline > 0) {
                    connections.remove(entry.getKey(), watched);
                    closeQuietly(watched.socket);
                    closedNow++;
                }
            }
            if (closedNow > 0) {
                closedForStalling.addAndGet(closedNow);
                LOG.log(
                        Level.INFO,
                        "closed "
                                + closedNow
                                + " connection(s) that sent no complete request head within "
                                + headerTimeout.toMillis()
                                + " ms");
            }
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
     * HeadDeadlines#accepted}. The web server calls {@link #configureSocket} once per accepted
     * connection, before it reads a byte.
     */
    private record WatchingOptions(SocketOptions delegate, HeadDeadlines deadlines)
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
