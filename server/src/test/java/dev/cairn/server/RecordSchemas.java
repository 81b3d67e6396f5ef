package dev.cairn.server;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The OpenAPI 3.0 schemas that the request and answer records imply, derived by reflection the way
 * Jackson reads and writes them: a component's JSON name ({@code @JsonProperty}), its type (text,
 * integer, number, boolean, list, map, nested record as a {@code $ref}, enum, any JSON for {@code
 * JsonNode}), which answer fields are always there (not {@code @JsonInclude}d away), {@code
 * JsonUnwrapped} components as {@code allOf}, and the strictness of request bodies ({@code
 * additionalProperties: false}). Component names are the records' nested Java names ({@code
 * DocumentView.Detail}). What reflection cannot see (descriptions, enums of wire names, ranges,
 * which request fields are required, nullability) the document adds; {@link #differences} ignores
 * those keywords.
 */
final class RecordSchemas {

    /** Request bodies: bound strictly, every field optional as far as reflection can tell. */
    static final Set<String> BODY_PACKAGES =
            Set.of("dev.cairn.api.body", "dev.cairn.server.api.body");

    /** Marks an answer record with a {@code @JsonAnyGetter}: it may send fields not named here. */
    private static final String OPEN = "x-open";

    private final Map<String, Map<String, Object>> schemas = new TreeMap<>();

    /** The schemas of {@code roots} and of every record they reach, by component name. */
    static Map<String, Map<String, Object>> of(Collection<Class<?>> roots) {
        RecordSchemas derived = new RecordSchemas();
        roots.forEach(derived::component);
        return derived.schemas;
    }

    /** {@code DocumentView.Detail} for {@code DocumentView$Detail}. */
    static String name(Class<?> type) {
        return type.getEnclosingClass() == null
                ? type.getSimpleName()
                : name(type.getEnclosingClass()) + "." + type.getSimpleName();
    }

    static boolean isBody(Class<?> type) {
        return BODY_PACKAGES.contains(type.getPackageName());
    }

    private Map<String, Object> component(Class<?> type) {
        String name = name(type);
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        if (!schemas.containsKey(name)) {
            schemas.put(name, Map.of()); // reserved: a record may reach itself
            schemas.put(name, record(type));
        }
        return Map.of("$ref", "#/components/schemas/" + name);
    }

    private Map<String, Object> record(Class<?> type) {
        boolean body = isBody(type);
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        List<Object> unwrapped = new ArrayList<>();
        boolean open = false;
        JsonInclude classInclude = type.getAnnotation(JsonInclude.class);
        for (RecordComponent c : type.getRecordComponents()) {
            Method accessor = c.getAccessor();
            if (accessor.isAnnotationPresent(JsonAnyGetter.class)) {
                open = true;
                continue;
            }
            if (accessor.isAnnotationPresent(JsonUnwrapped.class)) {
                unwrapped.add(schema(c.getGenericType()));
                continue;
            }
            JsonProperty property = accessor.getAnnotation(JsonProperty.class);
            String json =
                    property == null || property.value().isEmpty() ? c.getName() : property.value();
            properties.put(json, schema(c.getGenericType()));
            JsonInclude include = accessor.getAnnotation(JsonInclude.class);
            if (include == null) {
                include = classInclude;
            }
            boolean leftOut =
                    include != null
                            && include.value() != JsonInclude.Include.ALWAYS
                            && include.value() != JsonInclude.Include.USE_DEFAULTS
                            && (!c.getType().isPrimitive()
                                    || include.value() == JsonInclude.Include.NON_DEFAULT);
            if (!body && !leftOut) {
                required.add(json);
            }
        }
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("type", "object");
        if (!required.isEmpty()) {
            own.put("required", required);
        }
        own.put("properties", properties);
        if (body) {
            own.put("additionalProperties", false);
        }
        if (open) {
            own.put(OPEN, true);
        }
        if (unwrapped.isEmpty()) {
            return own;
        }
        List<Object> parts = new ArrayList<>(unwrapped);
        parts.add(own);
        return Map.of("allOf", parts);
    }

    private Map<String, Object> schema(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            if (Collection.class.isAssignableFrom(raw)) {
                return map("type", "array", "items", schema(args[0]));
            }
            if (Map.class.isAssignableFrom(raw)) {
                return map("type", "object", "additionalProperties", schema(args[1]));
            }
            return schema(raw);
        }
        if (type instanceof WildcardType w) {
            return schema(w.getUpperBounds()[0]);
        }
        if (type instanceof TypeVariable<?>) {
            return Map.of();
        }
        Class<?> c = (Class<?>) type;
        if (c == String.class) {
            return Map.of("type", "string");
        }
        if (Set.of(int.class, Integer.class, long.class, Long.class, short.class).contains(c)) {
            return Map.of("type", "integer");
        }
        if (Set.of(double.class, Double.class, float.class, Float.class, Number.class)
                .contains(c)) {
            return Map.of("type", "number");
        }
        if (c == boolean.class || c == Boolean.class) {
            return Map.of("type", "boolean");
        }
        if (c.isEnum()) {
            return map(
                    "type",
                    "string",
                    "enum",
                    Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList());
        }
        if (c == Object.class || JsonNode.class.isAssignableFrom(c)) {
            return Map.of();
        }
        if (c.isRecord()) {
            return component(c);
        }
        throw new IllegalArgumentException("no JSON schema for " + c.getName());
    }

    private static Map<String, Object> map(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /**
     * How the document's schema {@code doc} disagrees with the derived one, one line per
     * difference. Both are compared after merging {@code allOf} (so an unwrapped record may be
     * written either way); keywords reflection cannot know are ignored; a derived "any JSON"
     * accepts whatever the document narrows it to.
     *
     * @param components the document's {@code components/schemas}, to resolve {@code allOf} parts
     */
    @SuppressWarnings("unchecked")
    static List<String> differences(
            String path,
            Map<String, Object> derived,
            Map<String, Object> doc,
            Map<String, Map<String, Object>> derivedComponents,
            Map<String, Object> components) {
        List<String> out = new ArrayList<>();
        if (derived.isEmpty()) {
            return out;
        }
        if (doc == null) {
            out.add(path + ": missing");
            return out;
        }
        // {allOf: [{$ref}], nullable: true}: OpenAPI 3.0's way to say a reference may be null
        if (doc.get("allOf") instanceof List<?> parts
                && parts.size() == 1
                && parts.getFirst() instanceof Map<?, ?> only
                && only.containsKey("$ref")) {
            doc = (Map<String, Object>) only;
        }
        if (derived.containsKey("$ref") || doc.containsKey("$ref")) {
            if (!Objects.equals(derived.get("$ref"), doc.get("$ref"))) {
                out.add(path + ": $ref " + doc.get("$ref") + ", expected " + derived.get("$ref"));
            }
            return out;
        }
        Map<String, Object> d = merged(derived, derivedComponents);
        Map<String, Object> o =
                merged(doc, (Map<String, Map<String, Object>>) (Map<?, ?>) components);
        if (!Objects.equals(d.get("type"), o.get("type"))) {
            out.add(path + ": type " + o.get("type") + ", expected " + d.get("type"));
            return out;
        }
        if (d.containsKey("enum") && !Objects.equals(d.get("enum"), o.get("enum"))) {
            out.add(path + ": enum " + o.get("enum") + ", expected " + d.get("enum"));
        }
        if ("array".equals(d.get("type"))) {
            out.addAll(
                    differences(
                            path + "[]",
                            (Map<String, Object>) d.get("items"),
                            (Map<String, Object>) o.get("items"),
                            derivedComponents,
                            components));
        }
        if (!"object".equals(d.get("type"))) {
            return out;
        }
        Map<String, Object> dp = (Map<String, Object>) d.getOrDefault("properties", Map.of());
        Map<String, Object> op = (Map<String, Object>) o.getOrDefault("properties", Map.of());
        for (String k : dp.keySet()) {
            out.addAll(
                    differences(
                            path + "." + k,
                            (Map<String, Object>) dp.get(k),
                            (Map<String, Object>) op.get(k),
                            derivedComponents,
                            components));
        }
        boolean open = Boolean.TRUE.equals(d.get(OPEN));
        for (String k : op.keySet()) {
            if (!dp.containsKey(k) && !open) {
                out.add(path + "." + k + ": not in the record");
            }
        }
        Set<Object> dr = new TreeSet<>((List<Object>) d.getOrDefault("required", List.of()));
        Set<Object> or = new TreeSet<>((List<Object>) o.getOrDefault("required", List.of()));
        // An answer's required fields are what it always sends; a body's are the document's call.
        boolean answer = !Boolean.FALSE.equals(d.get("additionalProperties"));
        if (answer && (open ? !or.containsAll(dr) : !dr.equals(or))) {
            out.add(path + ": required " + or + ", expected " + dr);
        }
        Object da = d.get("additionalProperties");
        Object oa = o.get("additionalProperties");
        if (da instanceof Map<?, ?> dm) {
            out.addAll(
                    differences(
                            path + "{}",
                            (Map<String, Object>) dm,
                            oa instanceof Map<?, ?> om ? (Map<String, Object>) om : null,
                            derivedComponents,
                            components));
        } else if (Boolean.FALSE.equals(da) && !Boolean.FALSE.equals(oa)) {
            out.add(path + ": additionalProperties must be false (the body is bound strictly)");
        }
        return out;
    }

    /** {@code allOf} parts merged into one object schema, {@code $ref} parts resolved. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> merged(
            Map<String, Object> schema, Map<String, Map<String, Object>> components) {
        if (!schema.containsKey("allOf")) {
            return schema;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> properties = new LinkedHashMap<>();
        List<Object> required = new ArrayList<>();
        out.put("type", "object");
        for (Object part : (List<Object>) schema.get("allOf")) {
            Map<String, Object> p = (Map<String, Object>) part;
            if (p.containsKey("$ref")) {
                String ref = (String) p.get("$ref");
                p = components.get(ref.substring(ref.lastIndexOf('/') + 1));
                if (p == null) {
                    continue;
                }
            }
            p = merged(p, components);
            properties.putAll((Map<String, Object>) p.getOrDefault("properties", Map.of()));
            required.addAll((List<Object>) p.getOrDefault("required", List.of()));
            p.forEach(
                    (k, v) -> {
                        if (!Set.of("properties", "required", "type").contains(k)) {
                            out.put(k, v);
                        }
                    });
        }
        out.put("properties", properties);
        out.put("required", required);
        return out;
    }
}
