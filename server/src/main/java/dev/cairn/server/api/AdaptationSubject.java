package dev.cairn.server.api;

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
