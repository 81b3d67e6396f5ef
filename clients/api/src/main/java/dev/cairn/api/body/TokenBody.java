package dev.cairn.api.body;

import java.util.List;
import java.util.Objects;

/** {@code POST /v1/tokens}: roles and namespaces ({@code *} for all) are required, non-empty. */
public record TokenBody(String name, List<String> roles, List<String> namespaces) {

    public TokenBody {
        name = Objects.requireNonNullElse(name, "");
        roles = Objects.requireNonNullElse(roles, List.of());
        namespaces = Objects.requireNonNullElse(namespaces, List.of());
    }
}
