package dev.cairn.server.api.body;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.agents.kv.KeyValueMemory;
import java.util.List;
import java.util.Objects;

/**
 * The arguments of the agent tools that have no request body of their own elsewhere in the API,
 * bound as strictly as the bodies: each tool's schema declares {@code additionalProperties: false}.
 * ({@code retrieve}, {@code recall_memory}, {@code propose_memory} and {@code search_transcript}
 * take {@link RetrieveBody}, {@link RecallBody}, {@link NewProposalBody} and {@link
 * TranscriptSearchBody}.)
 */
public final class ToolArguments {

    private ToolArguments() {}

    /** {@code memory.read}. */
    public record MemoryRead(String key) {}

    /** {@code memory.write}. */
    public record MemoryWrite(String key, String value) {}

    /** {@code memory.search}; {@code top_k} as Orloj's provider spells it. */
    public record MemorySearch(String query, @JsonProperty("top_k") Integer topK) {

        public static final int DEFAULT_TOP_K = 10;

        public MemorySearch {
            topK = Objects.requireNonNullElse(topK, DEFAULT_TOP_K);
        }
    }

    /** {@code memory.list}: every entry when {@code prefix} is absent. */
    public record MemoryList(String prefix) {

        public MemoryList {
            prefix = Objects.requireNonNullElse(prefix, "");
        }
    }

    /** {@code memory.ingest}. */
    public record MemoryIngest(String source, String text, Integer chunkSize, Integer overlap) {

        public MemoryIngest {
            text = Objects.requireNonNullElse(text, "");
            chunkSize = Objects.requireNonNullElse(chunkSize, KeyValueMemory.DEFAULT_CHUNK_SIZE);
            overlap = Objects.requireNonNullElse(overlap, KeyValueMemory.DEFAULT_CHUNK_OVERLAP);
        }
    }

    /** {@code remember}: a memory proposal in an agent's words. */
    public record Remember(
            String content,
            String memoryType,
            String reason,
            List<String> tags,
            String agentName,
            String taskName) {

        public Remember {
            memoryType = Objects.requireNonNullElse(memoryType, "FACT");
            reason = Objects.requireNonNullElse(reason, "Filed by the remember tool.");
            tags = Objects.requireNonNullElse(tags, List.of());
            agentName = Objects.requireNonNullElse(agentName, "");
            taskName = Objects.requireNonNullElse(taskName, "");
        }
    }
}
