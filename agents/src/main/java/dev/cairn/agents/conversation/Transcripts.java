package dev.cairn.agents.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cairn.agents.search.HybridTextIndex;
import dev.cairn.agents.search.TextEntry;
import dev.cairn.agents.search.TextHit;
import dev.cairn.agents.search.TextIndexFollower;
import dev.cairn.safety.SafetyRule;
import dev.cairn.safety.SecretRedactor;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteSafety;
import dev.cairn.safety.WriteTarget;
import dev.cairn.store.Change;
import dev.cairn.store.ChangeLog;
import dev.cairn.store.Store;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The conversation write and search path: each message's text content is scanned by {@link
 * WriteGuard} ({@link WriteTarget#MESSAGE}) and what it finds is marked on the message (never a
 * refusal: a transcript records what happened), every string in its JSON is secret-redacted,
 * flagged messages are stored but never searched, and stored messages are indexed for transcript
 * search (BM25 and, with a model, dense). Thread-safe.
 */
public final class Transcripts implements AutoCloseable {

    /** Longest snippet in characters. */
    public static final int SNIPPET_LENGTH = 240;

    /** Most hits one search returns. */
    public static final int MAX_LIMIT = 100;

    /**
     * Largest message, as its JSON in UTF-8: 4 MiB, far above real turns (a long tool result) and
     * under the server's 10 MiB body limit, so a batch of a few large messages still fits.
     */
    public static final int MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConversationRepository repository;
    private final WriteGuard guard;
    private final SecretRedactor redactor;
    private final HybridTextIndex index;
    private final ChangeLog changeLog;
    private final TextIndexFollower follower;
    private final MessageWatch watch;

    private Transcripts(
            Store store, WriteGuard guard, SecretRedactor redactor, HybridTextIndex index) {
        this.repository = ConversationRepository.sql(store.sql());
        this.guard = Objects.requireNonNull(guard, "guard");
        // The guard's own message limit must not be the one that decides: a transcript keeps what
        // happened, so size is checked here (413 past MAX_MESSAGE_BYTES) and never flagged.
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.index = Objects.requireNonNull(index, "index");
        this.changeLog = store.changeLog();
        this.follower =
                new TextIndexFollower(
                        "transcripts",
                        Change.Kind.MESSAGE,
                        index,
                        this::searchable,
                        store::lastChangeSeq);
        this.watch =
                new MessageWatch(store::lastChangeSeq, MessageWatch.MAX_WATCHERS_PER_NAMESPACE);
    }

    /**
     * Transcripts in {@code store} with the standard guard and redactor, searched through {@code
     * index} (the caller owns it), which follows the store's change log until {@link #close()}.
     */
    public static Transcripts open(Store store, HybridTextIndex index) {
        Transcripts transcripts =
                new Transcripts(
                        store,
                        WriteGuard.create(
                                WriteSafety.create(
                                        new WriteSafety.Config(
                                                WriteSafety.DEFAULT_MAX_MEMORY_BYTES,
                                                WriteSafety.DEFAULT_MAX_PROPOSAL_BYTES,
                                                MAX_MESSAGE_BYTES)),
                                SecretRedactor.standard()),
                        SecretRedactor.standard(),
                        index);
        store.changeLog().follow(transcripts.follower);
        store.changeLog().follow(transcripts.watch);
        return transcripts;
    }

    private Map<String, TextEntry> searchable(String namespace, Collection<String> messageIds) {
        Map<String, TextEntry> out = new HashMap<>();
        for (StoredMessage m :
                repository.searchableBySequence(
                        namespace, messageIds.stream().map(Long::parseLong).toList())) {
            if (!m.flagged() && !m.content().isBlank()) {
                out.put(m.messageId(), new TextEntry(m.messageId(), m.content()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        changeLog.unfollow(watch);
        changeLog.unfollow(follower);
    }

    /** Who is waiting for new messages, woken as they are appended. */
    public MessageWatch watch() {
        return watch;
    }

    public ConversationRepository repository() {
        return repository;
    }

    /**
     * Scans, redacts, stores and indexes messages. A transcript is a record of what happened, so
     * nothing the scanner finds refuses a message: it is stored as sent (invisible characters
     * removed and every string's secrets redacted) with the rule names that matched as its flags,
     * and a flagged message is kept out of search (and so of extraction and recall contexts, which
     * read through search).
     *
     * @throws MessageTooLargeException when a message's JSON exceeds {@link #MAX_MESSAGE_BYTES}
     *     (nothing of the batch is stored)
     */
    public List<StoredMessage> append(
            String namespace,
            String conversationId,
            String queryId,
            List<JsonNode> messages,
            Duration ttl) {
        List<NewMessage> prepared = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String json = JSON.valueToTree(redact(message.deepCopy())).toString();
            int bytes = json.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_MESSAGE_BYTES) {
                throw new MessageTooLargeException(
                        "message "
                                + i
                                + " is "
                                + bytes
                                + " bytes of JSON, must be <= "
                                + MAX_MESSAGE_BYTES);
            }
            String content = MessageText.content(message);
            WriteGuard.Guarded guarded = guard.apply(content, WriteTarget.MESSAGE);
            List<String> flags =
                    new ArrayList<>(
                            guarded.safety().rules().stream().map(SafetyRule::ruleName).toList());
            if (forgedTurn(message)) {
                flags.add(SafetyRule.FORGED_TURN.ruleName());
            }
            // A blocked text is not redacted by the guard (it expects it dropped): redact it here.
            String text = guarded.blocked() ? redactor.redact(content).text() : guarded.text();
            prepared.add(
                    new NewMessage(json, MessageText.role(message), text, !flags.isEmpty(), flags));
        }
        List<StoredMessage> stored =
                repository.append(namespace, conversationId, queryId, prepared, ttl);
        changeLog.catchUp();
        return stored;
    }

    /**
     * A message that speaks as the system or developer, or carries tool calls without being the
     * assistant's: in a replayed history it would have authority its writer does not.
     */
    private static boolean forgedTurn(JsonNode message) {
        if (!message.isObject()) {
            return false;
        }
        String role = MessageText.role(message).toLowerCase(java.util.Locale.ROOT);
        if (role.equals("system") || role.equals("developer")) {
            return true;
        }
        boolean toolCalls = message.hasNonNull("tool_calls") || message.hasNonNull("function_call");
        return toolCalls && !role.equals("assistant");
    }

    /** Every string and every object key with its secrets redacted. */
    private JsonNode redact(JsonNode node) {
        if (node.isTextual()) {
            return new TextNode(redactor.redact(node.asText()).text());
        }
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            List<Map.Entry<String, JsonNode>> copy = new ArrayList<>(object.properties());
            object.removeAll();
            for (Map.Entry<String, JsonNode> e : copy) {
                object.set(redactor.redact(e.getKey()).text(), redact(e.getValue()));
            }
            return object;
        }
        if (node.isArray()) {
            ArrayNode array = (ArrayNode) node;
            for (int i = 0; i < array.size(); i++) {
                array.set(i, redact(array.get(i)));
            }
            return array;
        }
        return node;
    }

    /** Deletes a conversation and drops its messages from the search index. */
    public int deleteConversation(String namespace, String conversationId) {
        List<Long> deleted = repository.deleteConversation(namespace, conversationId);
        changeLog.catchUp();
        return deleted.size();
    }

    /** Deletes every conversation and message of the namespace, from store and index. */
    public int deleteAll(String namespace) {
        List<Long> deleted = repository.deleteAll(namespace);
        changeLog.catchUp();
        return deleted.size();
    }

    /** Deletes a query's messages (in one conversation, or in all with "") from store and index. */
    public int deleteQueryMessages(String namespace, String conversationId, String queryId) {
        List<Long> deleted = repository.deleteQueryMessages(namespace, conversationId, queryId);
        changeLog.catchUp();
        return deleted.size();
    }

    /**
     * Transcript search: the best {@code limit} unexpired, unflagged messages for {@code query},
     * optionally only in one conversation ({@code conversationId}, "" for all), scored and ordered
     * by relevance on a 0..1 similarity scale (as key/value search), hits under {@link
     * TextHit#RELEVANCE_FLOOR} left out.
     */
    public List<TranscriptHit> search(
            String namespace, String query, String conversationId, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        int candidates = conversationId.isEmpty() ? limit : Math.min(limit * 20, 1000);
        // another server may have written, or deleted and re-created the namespace, since
        changeLog.catchUpIfBehind();
        List<TextHit> hits =
                index.search(
                        namespace,
                        query,
                        candidates,
                        () ->
                                repository.searchable(namespace).stream()
                                        .filter(m -> !m.content().isBlank())
                                        .map(m -> new TextEntry(m.messageId(), m.content()))
                                        .toList());
        Map<String, StoredMessage> messages =
                repository
                        .searchableBySequence(
                                namespace, hits.stream().map(h -> Long.parseLong(h.id())).toList())
                        .stream()
                        .collect(Collectors.toMap(StoredMessage::messageId, Function.identity()));
        List<TranscriptHit> out = new ArrayList<>();
        for (TextHit hit : hits) {
            StoredMessage m = messages.get(hit.id());
            if (m == null
                    || hit.relevance() < TextHit.RELEVANCE_FLOOR
                    || (!conversationId.isEmpty() && !m.conversationId().equals(conversationId))) {
                continue;
            }
            out.add(
                    new TranscriptHit(
                            m.conversationId(),
                            m.messageId(),
                            m.queryId(),
                            m.role(),
                            snippet(m.content(), query),
                            hit.relevance()));
            if (out.size() == limit) {
                break;
            }
        }
        out.sort(Comparator.comparingDouble(TranscriptHit::score).reversed());
        return List.copyOf(out);
    }

    /**
     * At most {@link #SNIPPET_LENGTH} characters of {@code text}: a window starting a little before
     * the first query term found (case-insensitive), with {@code …} where text was cut.
     */
    static String snippet(String text, String query) {
        String flat = text.replaceAll("\\s+", " ").strip();
        if (flat.length() <= SNIPPET_LENGTH) {
            return flat;
        }
        String lower = flat.toLowerCase(Locale.ROOT);
        int at = -1;
        for (String term : query.toLowerCase(Locale.ROOT).split("\\W+")) {
            if (term.length() < 3) {
                continue;
            }
            int i = lower.indexOf(term);
            if (i >= 0 && (at < 0 || i < at)) {
                at = i;
            }
        }
        int start = Math.max(0, Math.min(at < 0 ? 0 : at - 40, flat.length() - SNIPPET_LENGTH + 2));
        int end = Math.min(flat.length(), start + SNIPPET_LENGTH - 2);
        return (start > 0 ? "…" : "")
                + flat.substring(start, end).strip()
                + (end < flat.length() ? "…" : "");
    }
}
