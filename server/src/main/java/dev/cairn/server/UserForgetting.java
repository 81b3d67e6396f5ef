package dev.cairn.server;

import dev.cairn.agents.conversation.ConversationErasure;
import dev.cairn.judge.store.JudgementErasure;
import dev.cairn.memory.store.MemoryErasure;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.TraceErasure;
import dev.cairn.retrieval.feedback.FeedbackErasure;
import dev.cairn.store.ForgetRecord;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Forgets one user of a namespace everywhere ({@code DELETE /v1/namespaces/{ns}/users/{userId}},
 * {@code cairn forget}): each module deletes its share in one store transaction ({@link
 * Store#forgetUser}), which also writes the audit record and the change that makes every server's
 * derived indexes drop and purge the user's entries. What is the user's:
 *
 * <ul>
 *   <li>{@code memories}: the memories with their user id (rows, not a soft delete), with their
 *       recall bookkeeping; {@code memoryTransitions}: their status history;
 *   <li>{@code proposals}: proposals applied into those memories;
 *   <li>{@code feedback}: judgments of those memories;
 *   <li>{@code conversations} and {@code messages}: the transcripts of conversations the memories
 *       name as their session or source (Cairn knows no other tie between a conversation and a
 *       user: ARK's API carries none);
 *   <li>{@code traces}: stored traces of retrieve queries asked for the user (the request's {@code
 *       userId}); {@code judgedAnswers} and {@code judgements}: answers judged against those traces
 *       and their verdicts.
 * </ul>
 *
 * Thread-safe.
 */
public final class UserForgetting {

    private final KnowledgeBase knowledge;
    private final Store store;

    public UserForgetting(KnowledgeBase knowledge) {
        this.knowledge = knowledge;
        this.store = knowledge.store();
    }

    /**
     * Forgets {@code userId} of {@code namespace}, asked for by {@code requestedBy}.
     *
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when {@code userId} is blank
     */
    public ForgetRecord forget(String namespace, String userId, String requestedBy) {
        if (userId == null || userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be empty");
        }
        SqlAccess sql = store.sql();
        knowledge.flushTraces(); // the traces of the user's last queries, still behind answers
        return store.forgetUser(
                namespace,
                userId,
                requestedBy,
                c -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    MemoryErasure.Erased memories = MemoryErasure.erase(c, sql, namespace, userId);
                    counts.put("memories", (long) memories.memoryIds().size());
                    counts.put("memoryTransitions", memories.transitions());
                    counts.put("proposals", (long) memories.proposalIds().size());
                    counts.put(
                            "feedback",
                            FeedbackErasure.eraseJudgmentsOfMemories(
                                    c, sql, namespace, memories.memoryIds()));
                    ConversationErasure.Erased transcripts =
                            ConversationErasure.erase(
                                    c, sql, namespace, memories.conversationIds());
                    counts.put("conversations", transcripts.conversations());
                    counts.put("messages", transcripts.messages());
                    List<String> traces = TraceErasure.erase(c, sql, namespace, userId);
                    counts.put("traces", (long) traces.size());
                    JudgementErasure.Erased judged =
                            JudgementErasure.erase(c, sql, namespace, traces);
                    counts.put("judgedAnswers", judged.answers());
                    counts.put("judgements", judged.judgements());
                    return counts;
                });
    }
}
