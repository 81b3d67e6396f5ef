package dev.cairn.memory.proposal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a proposal proposes. Only {@link #MEMORY} proposals can be applied. */
public enum ProposalType {
    MEMORY,
    POLICY,
    WORKFLOW,
    SKILL;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name, case-insensitively, naming the allowed values on error. */
    public static ProposalType parse(String name) {
        return ProposalStatus.parseEnum(ProposalType.class, "proposal type", name);
    }

    static String allowed() {
        return Arrays.stream(values())
                .map(ProposalType::wireName)
                .collect(Collectors.joining(", "));
    }
}
