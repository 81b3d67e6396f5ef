package dev.cairn.judge;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** {@link PolicyRegistry} over an immutable sorted map. Thread-safe. */
final class MapPolicyRegistry implements PolicyRegistry {

    private final Map<String, Policy> policies;

    MapPolicyRegistry(Collection<Policy> all) {
        TreeMap<String, Policy> map = new TreeMap<>();
        for (Policy p : all) {
            if (map.putIfAbsent(p.name(), p) != null) {
                throw new IllegalArgumentException(
                        "illegal policies: duplicate name '"
                                + p.name()
                                + "', names must be unique");
            }
        }
        this.policies = java.util.Collections.unmodifiableSortedMap(map);
    }

    @Override
    public Policy policy(String name) {
        Policy p = policies.get(name);
        if (p == null) {
            throw new IllegalArgumentException(
                    "unknown policy: '" + name + "', must be one of " + policies.keySet());
        }
        return p;
    }

    @Override
    public Set<String> names() {
        return policies.keySet();
    }
}
