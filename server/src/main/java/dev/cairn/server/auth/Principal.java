package dev.cairn.server.auth;

import java.util.Objects;

/** The authenticated caller of one request. */
public record Principal(ApiToken token) {

    public Principal {
        Objects.requireNonNull(token, "token");
    }

    /** Throws 403 unless the token holds {@code role} in {@code namespace}. */
    public void require(Role role, String namespace) {
        if (!token.allows(role, namespace)) {
            throw dev.cairn.server.http.HttpProblem.forbidden(
                    "token '"
                            + token.name()
                            + "' lacks role '"
                            + role.wireName()
                            + "' on namespace '"
                            + namespace
                            + "'");
        }
    }

    /** Throws 403 unless the token holds {@code role} on every namespace. */
    public void requireEverywhere(Role role) {
        if (!token.allowsEverywhere(role)) {
            throw dev.cairn.server.http.HttpProblem.forbidden(
                    "token '" + token.name() + "' lacks role '" + role.wireName() + "' on *");
        }
    }

    public boolean canSee(String namespace) {
        return token.allows(Role.READ, namespace);
    }
}
