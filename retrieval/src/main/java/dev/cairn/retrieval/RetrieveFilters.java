package dev.cairn.retrieval;

import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.StoredDocument;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Restricts a retrieve call to documents with any of {@code tags}, any of {@code sources}, one of
 * {@code authorities}, and, for each key of {@code metadata}, a metadata value of that key equal to
 * one of the listed values (its stored text, compared exactly); an empty list, set or map does not
 * restrict. The conditions of different fields and keys all hold at once.
 */
public record RetrieveFilters(
        List<String> tags,
        List<String> sources,
        Set<Authority> authorities,
        Map<String, List<String>> metadata) {

    public static final RetrieveFilters NONE =
            new RetrieveFilters(List.of(), List.of(), Set.of(), Map.of());

    public RetrieveFilters {
        tags = List.copyOf(tags);
        sources = List.copyOf(sources);
        authorities = Set.copyOf(authorities);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        metadata.forEach(
                (key, values) -> {
                    if (key == null || key.isBlank()) {
                        throw new IllegalArgumentException(
                                "illegal metadata filter key: '" + key + "', must not be blank");
                    }
                    if (values == null || values.isEmpty()) {
                        throw new IllegalArgumentException(
                                "metadata filter '"
                                        + key
                                        + "' lists no value, must list at least one");
                    }
                    if (values.stream().anyMatch(Objects::isNull)) {
                        throw new IllegalArgumentException(
                                "metadata filter '" + key + "' lists a null value");
                    }
                    copy.put(key, List.copyOf(values));
                });
        metadata = Collections.unmodifiableMap(copy);
    }

    /** Filters on the document fields alone, no metadata. */
    public RetrieveFilters(List<String> tags, List<String> sources, Set<Authority> authorities) {
        this(tags, sources, authorities, Map.of());
    }

    public boolean isEmpty() {
        return tags.isEmpty() && sources.isEmpty() && authorities.isEmpty() && metadata.isEmpty();
    }

    boolean accepts(StoredDocument document) {
        return (tags.isEmpty() || document.tags().stream().anyMatch(tags::contains))
                && (sources.isEmpty() || sources.contains(document.source()))
                && (authorities.isEmpty() || authorities.contains(document.authority()))
                && metadata.entrySet().stream()
                        .allMatch(filter -> matches(document, filter.getKey(), filter.getValue()));
    }

    // a document without the key matches no value (the immutable list refuses contains(null))
    private static boolean matches(StoredDocument document, String key, List<String> values) {
        String value = document.metadata().get(key);
        return value != null && values.contains(value);
    }
}
