package dev.cairn.server.http;

import io.helidon.common.buffers.DataReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A client that goes away mid-request (closes while sending its headers, resets the connection) is
 * the client's business: the web server logs it as an internal error with a stack trace, which
 * thousands of stalled or scanning clients turn into a flood. This filter on the web server's
 * connection loggers replaces such a record with one line; every other record passes unchanged.
 */
public final class ClientDisconnects implements Filter {

    private static final System.Logger LOG = System.getLogger(ClientDisconnects.class.getName());

    /** The web server's loggers that report a vanished client; kept so the filter stays set. */
    private static final List<Logger> SERVER_LOGGERS =
            List.of(
                    Logger.getLogger("io.helidon.webserver.http1.Http1Connection"),
                    Logger.getLogger("io.helidon.webserver.ConnectionHandler"));

    private ClientDisconnects() {}

    /** Installs the filter (idempotent). */
    public static void install() {
        ClientDisconnects filter = new ClientDisconnects();
        for (Logger logger : SERVER_LOGGERS) {
            if (!(logger.getFilter() instanceof ClientDisconnects)) {
                logger.setFilter(filter);
            }
        }
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        Throwable thrown = record.getThrown();
        if (thrown == null || !clientWentAway(thrown)) {
            return true;
        }
        LOG.log(
                Level.INFO,
                "client closed the connection mid-request ("
                        + LogText.escape(rootCause(thrown).getClass().getSimpleName())
                        + ")");
        return false;
    }

    private static boolean clientWentAway(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof DataReader.InsufficientDataAvailableException
                    || t instanceof UncheckedIOException
                    || t instanceof IOException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static Throwable rootCause(Throwable thrown) {
        Throwable t = thrown;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
