package dev.cairn.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import java.util.Map;

/** A {@link MemoryPort} for servers without the memory service: every use is a 409. */
public enum UnavailableMemory implements MemoryPort {
    INSTANCE;

    private static IllegalStateException unavailable() {
        return new IllegalStateException("the memory service is not available on this server");
    }

    @Override
    public Written write(NewMemory memory, String actor) {
        throw unavailable();
    }

    @Override
    public Map<String, Object> view(String namespace, String id) {
        throw unavailable();
    }

    @Override
    public boolean exists(Scope scope, MemoryType type, String content) {
        return false;
    }

    @Override
    public Map<String, Object> recall(String namespace, ObjectNode request) {
        throw unavailable();
    }
}
