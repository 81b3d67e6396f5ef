package dev.cairn.retrieval;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.StoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * A stored trace's candidates as one value of its row: a JSON array of entry objects, deflated.
 *
 * <p>A retrieve has 100-200 candidates. As a row each (sixteen bound columns, an index entry) a
 * trace cost its writer about 1.5 ms of CPU, most of it SQLite and the kernel writing some 52 KB of
 * pages, and took a tenth of the server's CPU at 16 connections. Deflated JSON of the same
 * candidates is a fifth of that size, bound as one value.
 *
 * <p>{@link #decode} also reads an undeflated array (it starts with {@code [}, a deflate stream
 * never does): traces stored as rows before were converted to it in SQL, which cannot deflate.
 */
final class TraceEntries {

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper READER = new ObjectMapper();

    private TraceEntries() {}

    /** The candidates, deflated JSON. */
    static byte[] encode(List<StoredTrace.Entry> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + 128 * entries.size());
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (OutputStream deflated = new DeflaterOutputStream(bytes, deflater, 8192);
                JsonGenerator out = JSON.createGenerator(deflated, JsonEncoding.UTF8)) {
            out.writeStartArray();
            for (StoredTrace.Entry e : entries) {
                write(out, e);
            }
            out.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a trace's candidates", e);
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    private static void write(JsonGenerator out, StoredTrace.Entry e) throws IOException {
        out.writeStartObject();
        out.writeNumberField("position", e.position());
        out.writeStringField("chunkId", e.chunkId());
        out.writeStringField("documentId", e.documentId());
        out.writeNumberField("fused", e.fused());
        out.writeObjectFieldStart("ranks");
        for (Map.Entry<Signal, Integer> r : e.ranks().entrySet()) {
            out.writeNumberField(r.getKey().name(), r.getValue());
        }
        out.writeEndObject();
        out.writeObjectFieldStart("scores");
        for (Map.Entry<Signal, Double> s : e.scores().entrySet()) {
            out.writeNumberField(s.getKey().name(), s.getValue());
        }
        out.writeEndObject();
        // most candidates are unselected, unfiltered and off the graph: their empty and default
        // fields are left out (decode reads a missing one as its default), a third of the text
        if (e.selected()) {
            out.writeBooleanField("selected", true);
        }
        writeUnlessEmpty(out, "title", e.title());
        writeUnlessEmpty(out, "heading", e.heading());
        writeUnlessEmpty(out, "text", e.text());
        if (e.authority() != Authority.DEFAULT) {
            out.writeStringField("authority", e.authority().name());
        }
        if (e.filteredOut()) {
            out.writeBooleanField("filteredOut", true);
        }
        writeUnlessEmpty(out, "explanation", e.explanation());
        if (!e.graphPath().isEmpty()) {
            out.writeArrayFieldStart("graphPath");
            for (GraphContext.TraversedRelation r : e.graphPath()) {
                out.writeStartObject();
                out.writeStringField("from", r.from());
                out.writeStringField("to", r.to());
                out.writeStringField("type", r.type());
                out.writeNumberField("weight", r.weight());
                out.writeEndObject();
            }
            out.writeEndArray();
        }
        out.writeEndObject();
    }

    private static void writeUnlessEmpty(JsonGenerator out, String field, String value)
            throws IOException {
        if (!value.isEmpty()) {
            out.writeStringField(field, value);
        }
    }

    /** The candidates of {@link #encode}'s bytes, or of an undeflated JSON array. */
    static List<StoredTrace.Entry> decode(byte[] stored) {
        JsonNode array;
        try (InputStream in = inflatedUnlessJson(stored)) {
            array = READER.readTree(in);
        } catch (IOException e) {
            throw new StoreException("a stored trace's candidates are not readable", e);
        }
        if (array == null || !array.isArray()) {
            throw new StoreException("a stored trace's candidates are not a JSON array", null);
        }
        List<StoredTrace.Entry> entries = new ArrayList<>(array.size());
        for (JsonNode e : array) {
            entries.add(entry(e));
        }
        return entries;
    }

    private static InputStream inflatedUnlessJson(byte[] stored) {
        InputStream raw = new ByteArrayInputStream(stored);
        return stored.length > 0 && stored[0] == '[' ? raw : new InflaterInputStream(raw);
    }

    private static StoredTrace.Entry entry(JsonNode e) {
        Map<Signal, Integer> ranks = new EnumMap<>(Signal.class);
        e.path("ranks")
                .properties()
                .forEach(
                        r ->
                                ranks.put(
                                        constant(Signal.class, "signal", r.getKey()),
                                        r.getValue().asInt()));
        Map<Signal, Double> scores = new EnumMap<>(Signal.class);
        e.path("scores")
                .properties()
                .forEach(
                        s ->
                                scores.put(
                                        constant(Signal.class, "signal", s.getKey()),
                                        s.getValue().asDouble()));
        List<GraphContext.TraversedRelation> path = new ArrayList<>();
        for (JsonNode r : e.path("graphPath")) {
            path.add(
                    new GraphContext.TraversedRelation(
                            r.path("from").asText(),
                            r.path("to").asText(),
                            r.path("type").asText(),
                            r.path("weight").asDouble()));
        }
        return new StoredTrace.Entry(
                e.path("position").asInt(),
                e.path("chunkId").asText(),
                e.path("documentId").asText(),
                e.path("fused").asDouble(),
                ranks,
                scores,
                e.path("selected").asBoolean(),
                e.path("title").asText(),
                e.path("heading").asText(),
                e.path("text").asText(),
                e.has("authority")
                        ? constant(Authority.class, "authority", e.path("authority").asText())
                        : Authority.DEFAULT,
                e.path("filteredOut").asBoolean(),
                e.path("explanation").asText(),
                path);
    }

    private static <E extends Enum<E>> E constant(Class<E> type, String what, String name) {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new StoreException("a stored trace names an unknown " + what + ": " + name, e);
        }
    }
}
