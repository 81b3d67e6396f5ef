package dev.cairn.judge;

import java.util.List;
import java.util.Objects;

/**
 * Finds secrets (API keys, tokens, passwords) in text, for the no-secrets policy rule. The server
 * wires the safety module's secret redactor in; implementations are thread-safe.
 */
@FunctionalInterface
public interface SecretDetector {

    /** The secrets in {@code text}, in text order; empty when there are none. */
    List<Finding> detect(String text);

    /**
     * Memory's standard secret detectors ({@link dev.cairn.safety.SecretRedactor#standard()}):
     * authorization headers, key/token/password assignments, well-known token formats, JWTs, PEM
     * private keys, credentials in URLs. Kinds are the safety module's labels, e.g. {@code
     * github_token}. It reads the text as the write path stores it ({@link
     * dev.cairn.safety.SafeText#normalize normalised}: invisible characters dropped, NFKC), so a
     * zero-width space or full-width letters inside a secret do not hide it; positions are in that
     * normalised text.
     */
    static SecretDetector standard() {
        return text ->
                dev.cairn.safety.SecretRedactor.standard()
                        .detect(dev.cairn.safety.SafeText.normalize(text))
                        .stream()
                        .map(f -> new Finding(f.kind().label(), f.start(), f.end()))
                        .toList();
    }

    /** A detector that never finds anything, for deployments without secret detection. */
    static SecretDetector none() {
        return text -> List.of();
    }

    /**
     * One secret found: its kind and where it is, never its value.
     *
     * @param kind e.g. {@code openai-api-key}
     * @param start index of its first char, {@code >= 0}
     * @param end index after its last char, {@code > start}
     */
    record Finding(String kind, int start, int end) {

        public Finding {
            Objects.requireNonNull(kind, "kind");
            if (start < 0 || end <= start) {
                throw new IllegalArgumentException(
                        "illegal span: [" + start + ", " + end + "), must have 0 <= start < end");
            }
        }
    }
}
