package dev.cairn.memory.service;

import java.util.List;

/**
 * What one maintenance run did.
 *
 * @param expired memories moved ACTIVE -> STALE past their TTL
 * @param pruned memories moved ACTIVE -> STALE by the per-user cap
 * @param reembedded memories whose embedding was missing or from another model
 * @param duplicateClusters groups of recallable same-scope same-type memories with pairwise cosine
 *     at or above the merge similarity, each as its ids (sorted)
 */
public record MaintenanceReport(
        int expired, int pruned, int reembedded, List<List<String>> duplicateClusters) {
    public MaintenanceReport {
        duplicateClusters = duplicateClusters.stream().map(List::copyOf).toList();
    }
}
