package dev.cairn.memory.service;

import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.Facet;
import dev.cairn.memory.PersonNames;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.store.Namespace;
import java.util.List;
import java.util.Objects;

/**
 * A recall answer: the memories best first with their score components, the context block assembled
 * from them, and whether the deadline cut the candidate search short.
 *
 * @param memories at most the request's limit, score desc then id asc
 * @param context the token-budgeted block (its {@code layers} are the included ids per layer)
 * @param partial true when a candidate search missed the deadline
 * @param tookMillis wall time of the recall
 * @param people the people the query names and by which of their names ({@link PersonNames}): their
 *     memories were {@code speakerBonus} more relevant
 * @param facets the facets a question asking for several things named ({@link
 *     dev.cairn.memory.Facet}): memories telling of them were {@code facetBonus} more relevant;
 *     empty for other questions (and when the facet bonus is off)
 * @param scope whose memories were read: one user's ({@code USER}) or every user's ({@code
 *     NAMESPACE})
 * @param adaptation the namespace's recall adaptation this recall applied ({@link
 *     AppliedAdaptation#NONE} when none is active)
 */
public record RecallResult(
        List<ScoredMemory> memories,
        AssembledContext context,
        boolean partial,
        long tookMillis,
        List<PersonNames.NamedPerson> people,
        List<Facet> facets,
        Namespace.RecallScope scope,
        AppliedAdaptation adaptation) {
    public RecallResult {
        memories = List.copyOf(memories);
        Objects.requireNonNull(context, "context");
        people = List.copyOf(people);
        facets = List.copyOf(facets);
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(adaptation, "adaptation");
    }
}
