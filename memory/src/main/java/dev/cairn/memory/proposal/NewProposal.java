package dev.cairn.memory.proposal;

import dev.cairn.memory.MemoryType;
import java.util.Objects;

/**
 * A proposal to file.
 *
 * @param type what it proposes
 * @param title short title
 * @param description why, and suggested {@code Tags:}
 * @param content the proposed text (the memory content for {@link ProposalType#MEMORY})
 * @param taskName task it came from ("" when none)
 * @param agentName agent that filed it ("" when none)
 * @param memoryType the type of the memory it becomes when applied ({@link MemoryType#FACT} unless
 *     said)
 */
public record NewProposal(
        ProposalType type,
        String title,
        String description,
        String content,
        String taskName,
        String agentName,
        MemoryType memoryType) {

    /** Longest title in characters. */
    public static final int MAX_TITLE_LENGTH = 500;

    public NewProposal {
        Objects.requireNonNull(type, "type");
        title = Objects.requireNonNull(title, "title").strip();
        if (title.isEmpty() || title.length() > MAX_TITLE_LENGTH) {
            throw new IllegalArgumentException(
                    "illegal title: "
                            + title.length()
                            + " characters, must be 1.."
                            + MAX_TITLE_LENGTH);
        }
        description = Objects.requireNonNull(description, "description");
        content = Objects.requireNonNull(content, "content").strip();
        if (content.isEmpty()) {
            throw new IllegalArgumentException("illegal content: blank, must have text");
        }
        taskName = Objects.requireNonNull(taskName, "taskName").strip();
        agentName = Objects.requireNonNull(agentName, "agentName").strip();
        Objects.requireNonNull(memoryType, "memoryType");
    }
}
