package dev.cairn.server;

import java.io.IOException;
import java.io.Serial;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Filter;
import java.util.logging.Logger;

/**
 * A port another process listens on, said in one line that names the way out. {@code cairn serve}
 * checks the port before it loads anything ({@link #requireFree}); should another process take it
 * between that check and the bind, {@link CairnServer} fails with the same exception instead of
 * running without a listener. Stateless, thread-safe.
 */
public final class PortInUse extends IllegalArgumentException {

    @Serial private static final long serialVersionUID = 1L;

    /** The web server that logs a failed bind, with its stack trace, before it gives up. */
    private static final String WEB_SERVER_LOGGER = "io.helidon.webserver.LoomServer";

    private PortInUse(int port) {
        super("port " + port + " is in use; pass --port N or set CAIRN_PORT (0 picks a free port)");
    }

    /**
     * Fails when {@code port} on {@code host} cannot be bound. Port 0 (any free port) always can.
     *
     * @throws PortInUse when another socket listens there
     */
    public static void requireFree(String host, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            // as the web server binds: SO_REUSEADDR on, so a port in TIME_WAIT counts as free
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw new PortInUse(port);
        } catch (IOException e) {
            // not a port conflict (an unknown host, say): the web server reports it
        }
    }

    /**
     * Runs {@code start} (which binds {@code port}) while the web server's report of a failed bind
     * is held back: it would log a 50-line stack trace and then start without a listener. Other
     * failures are logged as before.
     *
     * @return whether a bind failed
     */
    static boolean bindFailed(Runnable start) {
        Logger logger = Logger.getLogger(WEB_SERVER_LOGGER);
        AtomicBoolean failed = new AtomicBoolean();
        Filter previous = logger.getFilter();
        logger.setFilter(
                record -> {
                    if (causedByBind(record.getThrown())) {
                        failed.set(true);
                    }
                    // after the bind failed, "failed to start, shutting down" says nothing more
                    return !failed.get() && (previous == null || previous.isLoggable(record));
                });
        try {
            start.run();
        } finally {
            logger.setFilter(previous);
        }
        return failed.get();
    }

    /** The exception {@code cairn serve} answers when {@code port} was taken at bind time. */
    static PortInUse at(int port) {
        return new PortInUse(port);
    }

    private static boolean causedByBind(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }
}
