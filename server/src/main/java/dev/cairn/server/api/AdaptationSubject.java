package dev.cairn.server.api;

import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.store.SqlAccess;
import java.util.Locale;

/**
 * Which of a namespace's adaptations a request is about: retrieve's, trained from document and
 * chunk judgments, or recall's, trained from memory judgments (docs/api.md, "Feedback and
 * adaptation").
 */
public enum AdaptationSubject {
    DOCUMENTS,
    MEMORIES;

    /** {@code documents} or {@code memories}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Its versions in {@code sql}'s store, read and written directly (export and import; a server
     * applies what another writes within {@link
     * dev.cairn.retrieval.feedback.ActiveAdaptations#RECHECK}).
     */
    public AdaptationStore store(SqlAccess sql) {
        return this == DOCUMENTS ? AdaptationStore.documents(sql) : AdaptationStore.memories(sql);
    }

    /** Parses {@code documents|memories}, naming the legal values on error. */
    public static AdaptationSubject parse(String name) {
        for (AdaptationSubject s : values()) {
            if (s.wireName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "unknown subject: '" + name + "', must be one of documents, memories");
    }
}
