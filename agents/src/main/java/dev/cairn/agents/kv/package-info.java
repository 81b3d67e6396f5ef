/**
 * The key/value memory behind Orloj's HTTP memory provider and the {@code memory.*} agent tools:
 * string values under string keys per namespace, listed by key prefix in key order, searched
 * through {@link dev.cairn.agents.search.HybridTextIndex}.
 */
package dev.cairn.agents.kv;
