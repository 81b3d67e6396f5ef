package dev.cairn.memory.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock per namespace, shared by the writer and maintenance so that a dedup decision and the
 * write it leads to, or a maintenance batch, see no other write of the namespace in between.
 * Thread-safe.
 */
final class NamespaceLocks {

    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    /** The namespace's lock, created on first use. */
    ReentrantLock of(String namespace) {
        return locks.computeIfAbsent(namespace, k -> new ReentrantLock());
    }
}
