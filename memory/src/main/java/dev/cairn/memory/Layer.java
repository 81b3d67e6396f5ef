package dev.cairn.memory;

/**
 * Memory layers. The declaration order is the composition priority of a recall context: {@link
 * #EPISODIC} first, {@link #PROACTIVE} last (see {@link #priority()}).
 */
public enum Layer {
    /** What happened and what is known: facts, events, decisions, problems, preferences. */
    EPISODIC("Episodic"),
    /** How to do things: procedures and runbook steps. */
    PROCEDURAL("Procedural"),
    /** Relationships and conversational context about people and agents. */
    CONVERSATIONAL("Conversational"),
    /** Things to bring up unasked: open tasks and reminders. */
    PROACTIVE("Proactive");

    private final String title;

    Layer(String title) {
        this.title = title;
    }

    /** Composition priority, 0 is composed first. */
    public int priority() {
        return ordinal();
    }

    /** Human-readable title used as the layer header in an assembled context. */
    public String title() {
        return title;
    }

    /**
     * Parses a layer name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the allowed values when {@code name} is unknown
     */
    public static Layer parse(String name) {
        return Names.parse(Layer.class, "layer", name);
    }
}
