package dev.cairn.memory.internal;

import dev.cairn.store.Schema;
import java.util.List;

/**
 * The memory module's tables in the store: typed memories, their status history, proposals and
 * recall's adaptations.
 */
public final class MemorySchema implements Schema {

    @Override
    public String module() {
        return "memory";
    }

    @Override
    public String resourceRoot() {
        return "/dev/cairn/memory/schema/";
    }

    @Override
    public List<String> migrations() {
        return List.of(
                "V003__memory.sql",
                "V007__proposals.sql",
                "V018__model_id_without_precision.sql",
                "V022__memory_adaptations.sql",
                "V023__no_memory_vector_index.sql",
                "V026__memory_turn_windows.sql",
                "V028__memory_adaptation_learned_fusion.sql");
    }
}
