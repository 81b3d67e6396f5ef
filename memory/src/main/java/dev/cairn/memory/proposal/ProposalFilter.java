package dev.cairn.memory.proposal;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which proposals to list; empty sets and "" match everything.
 *
 * @param types only these types
 * @param statuses only these statuses
 * @param taskName only this task
 * @param agentName only this agent
 * @param text only proposals whose title, description or content contain this (case-insensitive)
 */
public record ProposalFilter(
        Set<ProposalType> types,
        Set<ProposalStatus> statuses,
        String taskName,
        String agentName,
        String text) {

    public static final ProposalFilter ALL = new ProposalFilter(Set.of(), Set.of(), "", "", "");

    public ProposalFilter {
        types = Set.copyOf(types);
        statuses = Set.copyOf(statuses);
        taskName = Objects.requireNonNull(taskName, "taskName").strip();
        agentName = Objects.requireNonNull(agentName, "agentName").strip();
        text = Objects.requireNonNull(text, "text").strip();
    }

    /** The text filter, when there is one. */
    public Optional<String> textFilter() {
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }
}
