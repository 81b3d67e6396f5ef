package dev.cairn.retrieval;

import java.util.Locale;

/**
 * What an agent should do with a retrieve answer, from its grounding score: answer from the
 * evidence, answer within what the evidence covers, or defer (ask, escalate, say it is unknown).
 */
public enum Plan {
    DIRECT,
    SCOPED,
    DEFER;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
