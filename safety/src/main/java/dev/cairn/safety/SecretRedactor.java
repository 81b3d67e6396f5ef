package dev.cairn.safety;

import java.util.List;

/**
 * Finds and replaces secrets in text before it is stored or answered: Authorization headers,
 * key/token/secret/password assignments, well-known token formats, JWTs, PEM private keys and
 * credentials in URLs. Public because the judge reuses {@link #detect} for its "no secrets in the
 * answer" rule. Implementations are immutable and thread-safe.
 */
public interface SecretRedactor {

    /** Replaces every secret with {@code [REDACTED:<kind>]}. */
    RedactionResult redact(String text);

    /** Lists secrets without replacing them, sorted by start offset; never overlapping. */
    List<SecretFinding> detect(String text);

    /** The standard detector set (see {@link SecretKind}). */
    static SecretRedactor standard() {
        return PatternSecretRedactor.INSTANCE;
    }
}
