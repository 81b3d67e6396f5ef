package dev.cairn.server.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns what the JSON parser and binder report into a plain-language 400 detail that names the
 * field and what it must be. The parser's own messages name its classes, methods and settings, so
 * none of them is passed on: every detail here is composed from the failure's kind, its location or
 * field path, and the target field's type.
 */
final class BindingProblems {

    private static final Pattern UNEXPECTED_CHARACTER =
            Pattern.compile("^Unexpected character \\('(.{1,2})' \\(code \\d+\\)\\)");
    private static final Pattern UNRECOGNIZED_TOKEN =
            Pattern.compile("^Unrecognized token '(.*?)'");
    private static final Pattern DUPLICATE_FIELD = Pattern.compile("^Duplicate field '(.*?)'");
    private static final int MAX_SHOWN_TOKEN = 40;

    private BindingProblems() {}

    /**
     * The 400 for a parsing or binding failure.
     *
     * @param body the parsed body when binding failed, to say what a wrong value was; null when
     *     parsing failed
     */
    static IllegalArgumentException describe(JacksonException e, JsonNode body) {
        return new IllegalArgumentException(detail(e, body));
    }

    private static String detail(JacksonException e, JsonNode body) {
        return switch (e) {
            case UnrecognizedPropertyException u -> unknownField(u);
            case InvalidNullException n -> "field '" + path(n) + "' must not be null";
            case MismatchedInputException m -> wrongType(m, body);
            case ValueInstantiationException v -> refused(v);
            case StreamConstraintsException c -> overLimit(c);
            case InputCoercionException c -> outOfRange(c);
            case JsonMappingException d when d.getCause() instanceof InputCoercionException c ->
                    outOfRange(c, d);
            case StreamReadException p -> malformed(p);
            case JsonMappingException d ->
                    path(d).isEmpty()
                            ? "the request body does not have the expected shape"
                            : "field '" + path(d) + "' does not have the expected shape";
            default -> "the request body is not valid JSON";
        };
    }

    private static String unknownField(UnrecognizedPropertyException u) {
        String parent = parentPath(u);
        String field = parent.isEmpty() ? u.getPropertyName() : parent + "." + u.getPropertyName();
        return "unknown field '" + field + "'; known fields: " + knownFields(u);
    }

    /** The record's components in declaration order, which is also the documented order. */
    private static String knownFields(UnrecognizedPropertyException u) {
        Class<?> type = u.getReferringClass();
        if (type != null && type.isRecord()) {
            return Arrays.stream(type.getRecordComponents())
                    .map(c -> c.getName())
                    .collect(Collectors.joining(", "));
        }
        Collection<Object> known = u.getKnownPropertyIds();
        return known == null
                ? "none"
                : known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }

    private static String wrongType(MismatchedInputException m, JsonNode body) {
        String path = path(m);
        Class<?> target = m.getTargetType();
        if (path.isEmpty()) {
            return "expected a JSON object, got " + (body == null ? "another value" : kind(body));
        }
        String expected = target == null ? "of another type" : expected(target);
        JsonNode given = at(body, m.getPath());
        return "field '"
                + path
                + "' must be "
                + expected
                + (given == null ? "" : ", got " + kind(given));
    }

    /** A record constructor refused the values; its message is Cairn's own and safe to show. */
    private static String refused(ValueInstantiationException v) {
        Throwable cause = v.getCause();
        if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
            return cause.getMessage();
        }
        String path = path(v);
        return path.isEmpty()
                ? "the request body's fields do not fit together"
                : "field '" + path + "' has an illegal value";
    }

    private static String overLimit(StreamConstraintsException c) {
        String message = Objects.requireNonNullElse(c.getOriginalMessage(), "");
        if (message.contains("nesting depth")) {
            return "the JSON nests deeper than "
                    + RequestBodies.MAX_NESTING_DEPTH
                    + " levels of objects and arrays";
        }
        if (message.contains("Number value length") || message.contains("number length")) {
            return "a number in the request body has too many digits";
        }
        if (message.contains("String value length") || message.contains("string length")) {
            return "a string in the request body is too long";
        }
        if (message.contains("Name length") || message.contains("name length")) {
            return "a field name in the request body is too long";
        }
        return "the request body exceeds a limit of the JSON reader";
    }

    private static String outOfRange(InputCoercionException c) {
        return "a number in the request body is out of range" + where(c.getLocation());
    }

    private static String outOfRange(InputCoercionException c, JsonMappingException wrapped) {
        String path = path(wrapped);
        if (path.isEmpty()) {
            return outOfRange(c);
        }
        Class<?> target = c.getTargetType();
        return "field '"
                + path
                + "' is out of range, must be "
                + (target == null ? "a smaller number" : expected(target));
    }

    private static String malformed(StreamReadException p) {
        String message = Objects.requireNonNullElse(p.getOriginalMessage(), "");
        String reason;
        Matcher m;
        if (message.startsWith("Unexpected end-of-input")) {
            reason = "the body ends before the JSON value is complete";
        } else if ((m = DUPLICATE_FIELD.matcher(message)).find()) {
            return "field '" + m.group(1) + "' appears more than once" + where(p.getLocation());
        } else if ((m = UNEXPECTED_CHARACTER.matcher(message)).find()) {
            reason = "unexpected character '" + m.group(1) + "'";
        } else if ((m = UNRECOGNIZED_TOKEN.matcher(message)).find()) {
            reason = "unrecognized word '" + shorten(m.group(1)) + "'";
        } else if (message.startsWith("Illegal unquoted character")) {
            reason = "a control character inside a string must be escaped";
        } else if (message.startsWith("Unrecognized character escape")) {
            reason = "unknown escape sequence in a string";
        } else if (message.startsWith("Invalid UTF-8")) {
            reason = "the body is not valid UTF-8";
        } else {
            reason = "not valid JSON";
        }
        JsonLocation at = p.getLocation();
        return "malformed JSON at line "
                + (at == null ? "?" : at.getLineNr())
                + ", column "
                + (at == null ? "?" : at.getColumnNr())
                + ": "
                + reason;
    }

    private static String where(JsonLocation at) {
        return at == null || at.getLineNr() < 1
                ? ""
                : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    private static String shorten(String token) {
        return token.length() <= MAX_SHOWN_TOKEN
                ? token
                : token.substring(0, MAX_SHOWN_TOKEN) + "…";
    }

    /** What a field of this type must be, in words. */
    static String expected(Class<?> type) {
        if (type == int.class
                || type == Integer.class
                || type == long.class
                || type == Long.class
                || type == short.class
                || type == Short.class) {
            return "an integer";
        }
        if (type == double.class
                || type == Double.class
                || type == float.class
                || type == Float.class
                || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type.isEnum()) {
            return "one of "
                    + Arrays.stream(type.getEnumConstants())
                            .map(String::valueOf)
                            .collect(Collectors.joining(", "));
        }
        if (type.isRecord() || Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        return "a value of another type";
    }

    /** What a JSON value is, in words. */
    static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a number with a fraction";
            case BOOLEAN -> node.asBoolean() ? "true" : "false";
            case NULL, MISSING -> "null";
            case BINARY -> "binary data";
        };
    }

    /** The field path of a failure: {@code filters.tags[1]}. */
    static String path(JsonMappingException e) {
        return render(e.getPath());
    }

    private static String parentPath(JsonMappingException e) {
        List<JsonMappingException.Reference> path = e.getPath();
        return path.isEmpty() ? "" : render(path.subList(0, path.size() - 1));
    }

    private static String render(List<JsonMappingException.Reference> path) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : path) {
            if (r.getFieldName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                out.append('[').append(r.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static JsonNode at(JsonNode body, List<JsonMappingException.Reference> path) {
        JsonNode node = body;
        for (JsonMappingException.Reference r : path) {
            if (node == null) {
                return null;
            }
            node = r.getFieldName() != null ? node.get(r.getFieldName()) : node.get(r.getIndex());
        }
        return node;
    }
}
