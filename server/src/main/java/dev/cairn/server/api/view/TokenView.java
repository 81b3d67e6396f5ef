package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import java.util.List;

/** An API token as listed: never its secret or hash; the creation answer alone has the secret. */
public record TokenView(
        String name,
        List<String> roles,
        List<String> namespaces,
        String createdAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) String token) {

    public static TokenView of(ApiToken token) {
        return new TokenView(
                token.name(),
                token.roles().stream().sorted().map(Role::wireName).toList(),
                token.namespaces(),
                token.createdAt().toString(),
                null);
    }

    /** The answer of creating a token: the only time its secret is shown. */
    public static TokenView created(ApiToken token, String secret) {
        TokenView view = of(token);
        return new TokenView(view.name, view.roles, view.namespaces, view.createdAt, secret);
    }
}
