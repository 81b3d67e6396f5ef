package dev.cairn.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads policy documents (YAML or JSON); see {@link PolicyRegistry#parse}. Uses SnakeYAML's safe
 * constructor, so a document can build nothing but maps, lists and scalars. Thread-safe (a new
 * parser per call).
 */
final class PolicyDocuments {

    /** Largest policy document accepted, in chars. */
    static final int MAX_DOCUMENT_CHARS = 1 << 20;

    private static final Set<String> POLICY_KEYS = Set.of("name", "rules");
    private static final Set<String> RULE_KEYS =
            Set.of(
                    "name",
                    "kind",
                    "weight",
                    "max-chars",
                    "maxChars",
                    "max-claims",
                    "maxClaims",
                    "phrases");

    private PolicyDocuments() {}

    /**
     * The YAML tree of {@code document}, or null when it is empty: bounded in size, no duplicate
     * keys, at most ten aliases (a document is untrusted input; aliases expand).
     */
    private static Object load(String document) {
        if (document.length() > MAX_DOCUMENT_CHARS) {
            throw new IllegalArgumentException(
                    "illegal policy document: "
                            + document.length()
                            + " chars, must be <= "
                            + MAX_DOCUMENT_CHARS);
        }
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(10);
        try {
            return new Yaml(new SafeConstructor(options)).load(document);
        } catch (YAMLException e) {
            throw new IllegalArgumentException("illegal policy document: " + e.getMessage(), e);
        }
    }

    static List<Policy> parse(String document) {
        Object root = load(document);
        if (root == null) {
            return List.of();
        }
        Map<?, ?> top = map(root, "document");
        List<Policy> out = new ArrayList<>();
        if (top.containsKey("policies")) {
            if (top.size() != 1) {
                throw new IllegalArgumentException(
                        "illegal policy document: keys "
                                + top.keySet()
                                + ", must be only [policies]");
            }
            for (Object p : list(top.get("policies"), "policies")) {
                out.add(policy(map(p, "policy")));
            }
        } else {
            out.add(policy(top));
        }
        return out;
    }

    /**
     * Parses one policy, {@code {rules: [...]}} with an optional {@code name} that must equal
     * {@code name}.
     */
    static Policy parseOne(String name, String document) {
        Object root = load(document);
        if (root == null) {
            return new Policy(name, List.of());
        }
        Map<?, ?> top = map(root, "policy");
        Object given = top.get("name");
        if (given != null && !name.equals(given.toString())) {
            throw new IllegalArgumentException(
                    "illegal policy document: name '" + given + "', must be '" + name + "'");
        }
        Map<Object, Object> named = new java.util.LinkedHashMap<>(top);
        named.put("name", name);
        return policy(named);
    }

    private static Policy policy(Map<?, ?> m) {
        requireKeys(m, POLICY_KEYS, "policy");
        String name = string(m.get("name"), "policy name");
        List<PolicyRule> rules = new ArrayList<>();
        Object r = m.get("rules");
        if (r != null) {
            for (Object rule : list(r, "rules of policy '" + name + "'")) {
                rules.add(rule(map(rule, "rule of policy '" + name + "'")));
            }
        }
        return new Policy(name, rules);
    }

    private static PolicyRule rule(Map<?, ?> m) {
        requireKeys(m, RULE_KEYS, "rule");
        PolicyRule.Kind kind = PolicyRule.Kind.parse(string(m.get("kind"), "rule kind"));
        String name = m.containsKey("name") ? string(m.get("name"), "rule name") : kind.id();
        double weight =
                m.containsKey("weight")
                        ? number(m.get("weight"), "weight").doubleValue()
                        : PolicyRule.DEFAULT_WEIGHT;
        return switch (kind) {
            case CITE_AUTHORITATIVE -> new PolicyRule.CiteAuthoritative(name, weight);
            case NO_SECRETS -> new PolicyRule.NoSecrets(name, weight);
            case DEFER_WHEN_PLANNED -> new PolicyRule.DeferWhenPlanned(name, weight);
            case MAX_LENGTH ->
                    new PolicyRule.MaxLength(
                            name,
                            weight,
                            integer(
                                    m,
                                    "max-chars",
                                    "maxChars",
                                    PolicyRule.MaxLength.DEFAULT_MAX_CHARS),
                            integer(
                                    m,
                                    "max-claims",
                                    "maxClaims",
                                    PolicyRule.MaxLength.DEFAULT_MAX_CLAIMS));
            case FORBIDDEN_PHRASES -> {
                List<String> phrases = new ArrayList<>();
                for (Object p : list(m.get("phrases"), "phrases of rule '" + name + "'")) {
                    phrases.add(string(p, "phrase"));
                }
                yield new PolicyRule.ForbiddenPhrases(name, weight, phrases);
            }
        };
    }

    private static int integer(Map<?, ?> m, String kebab, String camel, int fallback) {
        Object v = m.containsKey(kebab) ? m.get(kebab) : m.get(camel);
        if (v == null) {
            return fallback;
        }
        Number n = number(v, kebab);
        if (n.doubleValue() != Math.rint(n.doubleValue())
                || Math.abs(n.doubleValue()) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "illegal " + kebab + ": " + v + ", must be an integer");
        }
        return n.intValue();
    }

    private static void requireKeys(Map<?, ?> m, Set<String> legal, String what) {
        for (Object k : m.keySet()) {
            if (!legal.contains(String.valueOf(k))) {
                throw new IllegalArgumentException(
                        "illegal "
                                + what
                                + " key: '"
                                + k
                                + "', must be one of "
                                + new java.util.TreeSet<>(legal));
            }
        }
    }

    private static Map<?, ?> map(Object o, String what) {
        if (o instanceof Map<?, ?> m) {
            return m;
        }
        throw new IllegalArgumentException(
                "illegal " + what + ": " + describe(o) + ", must be a mapping");
    }

    private static List<?> list(Object o, String what) {
        if (o instanceof List<?> l) {
            return l;
        }
        throw new IllegalArgumentException(
                "illegal " + what + ": " + describe(o) + ", must be a list");
    }

    private static String string(Object o, String what) {
        if (o instanceof String s && !s.isBlank()) {
            return s.strip();
        }
        throw new IllegalArgumentException(
                "illegal " + what + ": " + describe(o) + ", must be a non-blank string");
    }

    private static Number number(Object o, String what) {
        if (o instanceof Number n) {
            return n;
        }
        throw new IllegalArgumentException(
                "illegal " + what + ": " + describe(o) + ", must be a number");
    }

    private static String describe(Object o) {
        return o == null ? "missing" : "'" + o + "'";
    }
}
