package dev.cairn.langchain4j;

import dev.cairn.api.body.NewMemoryBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.client.NamespaceClient;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.util.Objects;

/**
 * {@code recall} and {@code remember} as LangChain4j tools for one user of one namespace: pass an
 * instance to {@code AiServices.builder(...).tools(...)}. The model chooses the query, or the
 * memory's type and content; the user is fixed by the application (a model never picks whose
 * memories it reads). A write the server refuses (an unknown type) is a {@code CairnException} with
 * the server's detail.
 */
public final class CairnMemoryTools {

    private final NamespaceClient namespace;
    private final String userId;

    /** The tools for {@code userId}'s memories ("" for memories of no user). */
    public CairnMemoryTools(NamespaceClient namespace, String userId) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.userId = Objects.requireNonNull(userId, "userId");
    }

    @Tool(
            name = "recall",
            value =
                    "Recall what is remembered about the user that bears on a question: their"
                            + " preferences, facts, decisions and past events")
    public String recall(@P("the question the memories should answer") String query) {
        RecallAnswer answer = namespace.recall(RecallBody.of(query, userId));
        return answer.memories().isEmpty() ? "Nothing remembered about that." : answer.context();
    }

    @Tool(name = "remember", value = "Remember something about the user for later conversations")
    public String remember(
            @P(
                            "the kind of memory: FACT, EVENT, PREFERENCE, DECISION, PROBLEM,"
                                    + " RELATIONSHIP, TASK or PROCEDURE")
                    String type,
            @P("what to remember, one self-contained sentence") String content) {
        MemoryView.Written written = namespace.remember(NewMemoryBody.of(type, content, userId));
        return written.deduplicatedInto() == null
                ? "Remembered as " + written.memory().id() + "."
                : "Already remembered as " + written.deduplicatedInto() + ".";
    }
}
