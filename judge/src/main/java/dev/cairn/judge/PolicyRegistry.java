package dev.cairn.judge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The policies of one namespace, by name. Always knows {@value #DEFAULT_POLICY}: the {@link
 * #defaultPolicy() built-in one} unless a document overrides it. Immutable and thread-safe.
 */
public interface PolicyRegistry {

    /** Name of the policy used when a request names none. */
    String DEFAULT_POLICY = "default";

    /**
     * The named policy.
     *
     * @throws IllegalArgumentException naming the known policies when there is none by that name
     */
    Policy policy(String name);

    /** Names of the known policies, sorted. */
    Set<String> names();

    /** A registry with only the built-in {@value #DEFAULT_POLICY} policy. */
    static PolicyRegistry builtIn() {
        return of(List.of());
    }

    /**
     * A registry of the given policies plus the built-in default unless one of them is named
     * {@value #DEFAULT_POLICY}.
     *
     * @throws IllegalArgumentException when two policies share a name
     */
    static PolicyRegistry of(Collection<Policy> policies) {
        List<Policy> all = new ArrayList<>(policies);
        if (all.stream().noneMatch(p -> p.name().equals(DEFAULT_POLICY))) {
            all.add(defaultPolicy());
        }
        return new MapPolicyRegistry(all);
    }

    /**
     * Parses a policy document, YAML or JSON (a JSON document is YAML too), plus the built-in
     * default unless the document overrides it. Shape:
     *
     * <pre>{@code
     * policies:
     *   - name: runbooks
     *     rules:
     *       - {name: cite-runbooks, kind: cite-authoritative, weight: 2}
     *       - {name: no-secrets, kind: no-secrets}
     *       - {name: defer, kind: defer-when-planned}
     *       - {name: short, kind: max-length, max-chars: 2000, max-claims: 10}
     *       - {name: tone, kind: forbidden-phrases, phrases: ["as an AI language model"]}
     * }</pre>
     *
     * A rule's {@code name} defaults to its kind, its {@code weight} to 1; {@code max-length} takes
     * {@code max-chars} (default {@value PolicyRule.MaxLength#DEFAULT_MAX_CHARS}) and {@code
     * max-claims} (default {@value PolicyRule.MaxLength#DEFAULT_MAX_CLAIMS}), camelCase accepted.
     *
     * @throws IllegalArgumentException naming the offending key or value when the document is
     *     malformed
     */
    static PolicyRegistry parse(String document) {
        return of(PolicyDocuments.parse(document));
    }

    /**
     * The built-in {@value #DEFAULT_POLICY} policy: {@code no-secrets}, {@code cite-authoritative}
     * (procedural answers), {@code defer-when-planned} and {@code max-length} with the default
     * limits, all of weight 1.
     */
    static Policy defaultPolicy() {
        return new Policy(
                DEFAULT_POLICY,
                List.of(
                        new PolicyRule.NoSecrets("no-secrets", PolicyRule.DEFAULT_WEIGHT),
                        new PolicyRule.CiteAuthoritative(
                                "cite-authoritative", PolicyRule.DEFAULT_WEIGHT),
                        new PolicyRule.DeferWhenPlanned(
                                "defer-when-planned", PolicyRule.DEFAULT_WEIGHT),
                        new PolicyRule.MaxLength(
                                "max-length",
                                PolicyRule.DEFAULT_WEIGHT,
                                PolicyRule.MaxLength.DEFAULT_MAX_CHARS,
                                PolicyRule.MaxLength.DEFAULT_MAX_CLAIMS)));
    }
}
