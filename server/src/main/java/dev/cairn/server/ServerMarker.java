package dev.cairn.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.embeddings.AtomicReplace;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a running server marks the data dir it serves: {@value #FILE} (owner-only, 0600, in the
 * owner-only data dir) with the server's process id, its base URL and a token for the local command
 * line. A local {@code cairn retrieve}, {@code recall} or {@code ingest} on the same data dir reads
 * it and asks that server over HTTP instead of loading the encoder itself. The token is valid only
 * while this server process runs and grants what the files of the data dir grant anyway (whoever
 * can read this file can read the database next to it). Written once the server listens, removed
 * when it stops; a file left by a killed server is recognised by its process being gone ({@link
 * #holder}).
 *
 * @param pid the server's process id
 * @param url the server's base URL
 * @param token the local command line's bearer token
 */
public record ServerMarker(long pid, URI url, String token) {

    /** The marker's file name in the data dir. */
    public static final String FILE = "server.json";

    /** Writes the marker into {@code dataDir}, owner-only from the start. */
    public void write(Path dataDir) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("pid", pid);
        fields.put("url", url.toString());
        fields.put("token", token);
        Path target = dataDir.resolve(FILE);
        Path temp = dataDir.resolve(FILE + ".tmp");
        try {
            Files.deleteIfExists(temp);
            Files.createFile(temp);
            DataDir.restrict(temp); // before the secret is in it
            Files.write(temp, Json.bytes(fields));
            AtomicReplace.move(temp, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    /** Removes the marker from {@code dataDir} if it is this one (a newer server may own it). */
    public void remove(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        if (read(dataDir).filter(this::equals).isPresent()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove " + file, e);
            }
        }
    }

    /**
     * The server that holds {@code dataDir}: the marker there when its process still runs. A marker
     * left by a killed server holds nothing: its pid is gone, or (after a reboot) taken by a
     * process that is no JVM.
     */
    public static Optional<ServerMarker> holder(Path dataDir) {
        return read(dataDir)
                .filter(m -> ProcessHandle.of(m.pid()).filter(ServerMarker::jvm).isPresent());
    }

    /** A live process that may be a Cairn server: a JVM, or one whose command cannot be read. */
    private static boolean jvm(ProcessHandle process) {
        return process.isAlive()
                && process.info()
                        .command()
                        .map(c -> Path.of(c).getFileName().toString().startsWith("java"))
                        .orElse(true);
    }

    /** The marker in {@code dataDir}, empty when there is none or it cannot be read. */
    public static Optional<ServerMarker> read(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
            return Optional.of(
                    new ServerMarker(
                            node.path("pid").asLong(),
                            URI.create(node.path("url").asText()),
                            node.path("token").asText()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // half-written or foreign: as if absent
        }
    }
}
