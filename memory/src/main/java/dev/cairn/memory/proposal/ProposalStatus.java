package dev.cairn.memory.proposal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where a proposal is in its lifecycle (see the package documentation). */
public enum ProposalStatus {
    PENDING,
    ACCEPTED,
    REJECTED,
    APPLIED,
    ARCHIVED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name, case-insensitively, naming the allowed values on error. */
    public static ProposalStatus parse(String name) {
        return parseEnum(ProposalStatus.class, "proposal status", name);
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, String what, String name) {
        try {
            return Enum.valueOf(type, name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "unknown "
                            + what
                            + ": '"
                            + name
                            + "', must be one of "
                            + Arrays.stream(type.getEnumConstants())
                                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", ")));
        }
    }
}
