package dev.cairn.judge;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named set of rules an answer must follow; one document of them per namespace.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the policy's name, non-blank
 * @param rules its rules, with unique names; may be empty (then compliance is 1)
 */
public record Policy(String name, List<PolicyRule> rules) {

    public Policy {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal policy name: '" + name + "', must not be blank");
        }
        rules = List.copyOf(rules);
        Set<String> names = new HashSet<>();
        for (PolicyRule r : rules) {
            if (!names.add(r.name())) {
                throw new IllegalArgumentException(
                        "illegal policy '"
                                + name
                                + "': duplicate rule name '"
                                + r.name()
                                + "', names must be unique");
            }
        }
    }

    /**
     * Parses one policy document, YAML or JSON: {@code {rules: [...]}} (rule shapes as in {@link
     * PolicyRegistry#parse}), with an optional {@code name} that must equal {@code name}.
     *
     * @throws IllegalArgumentException naming the offending key or value when the document is
     *     malformed or names another policy
     */
    public static Policy parse(String name, String document) {
        return PolicyDocuments.parseOne(name, document);
    }
}
