package dev.cairn.server.http;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Request bodies, strictly: one JSON value (nothing after it), no repeated keys, at most {@link
 * #MAX_NESTING_DEPTH} levels deep, and for Cairn's own API bound to a record with no unknown fields
 * and no silent conversions (a string is not a number, 1.5 is not an integer, a number is not a
 * string). Every problem is an {@link IllegalArgumentException}, a 400, whose message says in plain
 * language what is wrong and where ({@link BindingProblems}). Thread-safe.
 */
public final class RequestBodies {

    /** How deep a request body may nest objects and arrays. */
    public static final int MAX_NESTING_DEPTH = 1000;

    static final JsonMapper STRICT =
            JsonMapper.builder(
                            JsonFactory.builder()
                                    .streamReadConstraints(
                                            StreamReadConstraints.builder()
                                                    .maxNestingDepth(MAX_NESTING_DEPTH)
                                                    .build())
                                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                                    .build())
                    .findAndAddModules()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    // A null field is an absent one; a null inside an array is an error.
                    .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL))
                    .withCoercionConfig(
                            LogicalType.Textual,
                            c ->
                                    c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                                            .setCoercion(
                                                    CoercionInputShape.Float, CoercionAction.Fail)
                                            .setCoercion(
                                                    CoercionInputShape.Boolean,
                                                    CoercionAction.Fail))
                    .build();

    private RequestBodies() {}

    /**
     * The request body as {@code type}, a record: 413 past {@code limit} bytes, 415 for a non-JSON
     * content type, 400 for an empty body and every parsing or binding problem.
     */
    public static <T> T read(ServerRequest req, long limit, Class<T> type) {
        return bindParsed(readObject(req, limit), type);
    }

    /** Like {@link #read}, but an absent or empty body is {@code whenEmpty}. */
    public static <T> T readOptional(ServerRequest req, long limit, Class<T> type, T whenEmpty) {
        byte[] body = Json.readBody(req, limit);
        if (isBlank(body)) {
            return whenEmpty;
        }
        JsonNode node = parse(body);
        if (node.isNull()) {
            return whenEmpty;
        }
        return bindParsed(object(node), type);
    }

    /** The request body as a JSON object, any fields (the compatibility mounts use it). */
    public static ObjectNode readObject(ServerRequest req, long limit) {
        byte[] body = Json.readBody(req, limit);
        if (body.length == 0) {
            throw new IllegalArgumentException("request body is empty, expected a JSON object");
        }
        return parseObject(body);
    }

    /**
     * Binds a parsed object to {@code type}, a record, with the same plain-language 400s; MCP's
     * tool arguments come here without {@link #parseObject}, so text is checked here too.
     */
    public static <T> T bind(ObjectNode body, Class<T> type) {
        requireStorableText(body, "");
        return bindParsed(body, type);
    }

    /** {@link #bind} of an object {@link #parse} made, whose text it has checked already. */
    private static <T> T bindParsed(ObjectNode body, Class<T> type) {
        try {
            return STRICT.treeToValue(body, type);
        } catch (JacksonException e) {
            throw BindingProblems.describe(e, body);
        }
    }

    /**
     * Parses exactly one JSON object: 400 naming line and column for malformed JSON, for content
     * after the object, for repeated keys and for nesting past the limit.
     */
    public static ObjectNode parseObject(byte[] body) {
        return object(parse(body));
    }

    private static JsonNode parse(byte[] body) {
        JsonNode node;
        try (JsonParser parser = STRICT.createParser(body)) {
            node = STRICT.readTree(parser);
            if (node != null && parser.nextToken() != null) {
                throw new IllegalArgumentException(
                        "unexpected content after the JSON value at line "
                                + parser.currentTokenLocation().getLineNr()
                                + ", column "
                                + parser.currentTokenLocation().getColumnNr());
            }
        } catch (JacksonException e) {
            throw BindingProblems.describe(e, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (node == null || node.isMissingNode()) {
            throw new IllegalArgumentException("request body is empty, expected a JSON object");
        }
        requireStorableText(node, "");
        return node;
    }

    /**
     * 400 for a NUL character or a lone surrogate (U+D800 to U+DFFF without its pair) in any string
     * or field name: no store keeps them (PostgreSQL cannot store a NUL in text at all, and UTF-8
     * has no encoding of half a character, so it would come back as "?"), so they are refused the
     * same way on every store, before any write, naming the field.
     */
    private static void requireStorableText(JsonNode node, String path) {
        if (node.isTextual()) {
            String problem = unstorable(node.textValue());
            if (problem != null) {
                throw new IllegalArgumentException(
                        (path.isEmpty() ? "the request body" : "field '" + path + "'")
                                + " contains "
                                + problem
                                + ", which is not allowed");
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                requireStorableText(node.get(i), path + "[" + i + "]");
            }
        } else if (node.isObject()) {
            for (var field : node.properties()) {
                String name = field.getKey();
                String child = path.isEmpty() ? name : path + "." + name;
                String problem = unstorable(name);
                if (problem != null) {
                    throw new IllegalArgumentException(
                            "a field name"
                                    + (path.isEmpty() ? "" : " in '" + path + "'")
                                    + " contains "
                                    + problem
                                    + ", which is not allowed");
                }
                requireStorableText(field.getValue(), child);
            }
        }
    }

    /** What makes {@code text} unstorable, in words, or null when it is storable. */
    private static String unstorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                return "a NUL character (\\u0000)";
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return String.format(
                        "a lone surrogate (\\u%04x) at character %d: half of a UTF-16 pair is"
                                + " not a character",
                        (int) c, i);
            }
        }
        return null;
    }

    private static ObjectNode object(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(
                    "expected a JSON object, got " + BindingProblems.kind(node));
        }
        return (ObjectNode) node;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }
}
