package dev.cairn.memory;

import java.util.Objects;

/**
 * Where a memory belongs. Absent parts are the empty string, never {@code null}. Only the namespace
 * is required.
 */
public record Scope(
        String namespace,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask) {

    /** Longest allowed length of any scope part. */
    public static final int MAX_PART_LENGTH = 256;

    public Scope {
        namespace = part("namespace", namespace);
        userId = part("userId", userId);
        agentId = part("agentId", agentId);
        sessionName = part("sessionName", sessionName);
        taskName = part("taskName", taskName);
        parentTask = part("parentTask", parentTask);
        if (namespace.isEmpty()) {
            throw new IllegalArgumentException("illegal namespace: '', must be non-blank");
        }
    }

    /** A scope with only a namespace. */
    public static Scope of(String namespace) {
        return new Scope(namespace, "", "", "", "", "");
    }

    /** A scope with a namespace, user and agent. */
    public static Scope of(String namespace, String userId, String agentId) {
        return new Scope(namespace, userId, agentId, "", "", "");
    }

    public Scope withUser(String userId) {
        return new Scope(namespace, userId, agentId, sessionName, taskName, parentTask);
    }

    public Scope withAgent(String agentId) {
        return new Scope(namespace, userId, agentId, sessionName, taskName, parentTask);
    }

    public Scope withSession(String sessionName) {
        return new Scope(namespace, userId, agentId, sessionName, taskName, parentTask);
    }

    public Scope withTask(String taskName, String parentTask) {
        return new Scope(namespace, userId, agentId, sessionName, taskName, parentTask);
    }

    private static String part(String name, String value) {
        Objects.requireNonNull(value, name);
        String v = value.strip();
        if (v.length() > MAX_PART_LENGTH) {
            throw new IllegalArgumentException(
                    "illegal "
                            + name
                            + " length: "
                            + v.length()
                            + ", must be <= "
                            + MAX_PART_LENGTH);
        }
        return v;
    }
}
