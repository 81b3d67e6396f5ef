package dev.cairn.agents.internal;

import dev.cairn.store.Schema;
import java.util.List;

/**
 * The agents module's tables in the store: ARK conversations and messages, Orloj key/value entries.
 */
public final class AgentsSchema implements Schema {

    @Override
    public String module() {
        return "agents";
    }

    @Override
    public String resourceRoot() {
        return "/dev/cairn/agents/schema/";
    }

    @Override
    public List<String> migrations() {
        return List.of("V004__conversations.sql", "V008__message_flags.sql");
    }
}
