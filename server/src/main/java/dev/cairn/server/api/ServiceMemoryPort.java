package dev.cairn.server.api;

import dev.cairn.api.body.RecallBody;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.store.PageRequest;
import java.util.List;
import java.util.Objects;

/** {@link MemoryPort} over the {@link MemoryService}. Thread-safe. */
public final class ServiceMemoryPort implements MemoryPort {

    /** Candidates compared by content hash in {@link #exists}. */
    static final int DUPLICATE_CANDIDATES = 50;

    private final MemoryService memory;

    public ServiceMemoryPort(MemoryService memory) {
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    @Override
    public Written write(NewMemory draft, String actor) {
        WriteResult r = memory.write(draft, actor);
        return new Written(r.memory().id(), MemoryViews.memory(r.memory()));
    }

    @Override
    public MemoryView view(String namespace, String id) {
        return MemoryViews.memory(memory.get(namespace, id));
    }

    @Override
    public boolean exists(Scope scope, MemoryType type, String content) {
        MemoryFilter filter =
                MemoryFilter.all()
                        .withText(content)
                        .withTypes(List.of(type))
                        .withIncludeDisabled(true);
        if (!scope.userId().isEmpty()) {
            filter = filter.withUser(scope.userId());
        }
        if (!scope.agentId().isEmpty()) {
            filter = filter.withAgent(scope.agentId());
        }
        String hash = TextNormalizer.contentHash(content);
        return memory
                .list(scope.namespace(), filter, PageRequest.first(DUPLICATE_CANDIDATES))
                .items()
                .stream()
                .map(Memory::contentHash)
                .anyMatch(hash::equals);
    }

    @Override
    public RecallAnswer recall(String namespace, RecallBody request) {
        return MemoryViews.recall(memory.recall(LibraryRequests.recall(namespace, request)));
    }
}
