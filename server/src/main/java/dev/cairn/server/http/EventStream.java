package dev.cairn.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A response body of server-sent events, written as it goes: each event is flushed at once. A
 * client that went away shows as an {@link IOException} (or {@link UncheckedIOException}) on a
 * write, which is how a long-lived stream learns it can stop: not always the first write after it
 * left (that one may still reach the socket, whose peer answers it with a reset), but the next.
 */
public final class EventStream implements AutoCloseable {

    public static final String MEDIA_TYPE = "text/event-stream";

    private final OutputStream out;

    private EventStream(OutputStream out) {
        this.out = out;
    }

    /** Answers 200 {@code text/event-stream}, uncached, and opens the body. */
    public static EventStream open(ServerResponse res) {
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, MEDIA_TYPE);
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        return new EventStream(res.outputStream());
    }

    /** A comment line ({@code : text}), which clients ignore: a keep-alive or a greeting. */
    public void comment(String text) throws IOException {
        write(": " + text + "\n\n");
    }

    /** An unnamed event with one line of data (JSON has no raw newlines). */
    public void data(String line) throws IOException {
        write("data: " + line + "\n\n");
    }

    /** A named event with an id and one line of data. */
    public void event(String id, String name, String line) throws IOException {
        write("id: " + id + "\nevent: " + name + "\ndata: " + line + "\n\n");
    }

    private void write(String text) throws IOException {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException | UncheckedIOException e) {
            // The client is gone already; nothing to release.
        }
    }
}
