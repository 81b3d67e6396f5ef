package dev.cairn.server.api;

import dev.cairn.agents.conversation.TranscriptHit;
import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.api.body.TranscriptSearchBody;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.server.api.view.TranscriptHitView;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;

/**
 * {@code POST /v1/namespaces/{ns}/transcripts/search}: hybrid search over stored conversation
 * messages, compact snippets in the list shape. {@code sessionName} names an ARK conversation (ARK
 * sessions are conversations) and is used when {@code conversationId} is absent. Thread-safe.
 */
public final class TranscriptRoutes implements HttpService {

    private final Store store;
    private final Transcripts transcripts;
    private final long maxBodyBytes;

    public TranscriptRoutes(Store store, Transcripts transcripts, long maxBodyBytes) {
        this.store = store;
        this.transcripts = transcripts;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        String path = "/v1/namespaces/{ns}/transcripts/search";
        rules.post(path, this::search);
        Routes.methodNotAllowed(rules, path);
    }

    private void search(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        TranscriptSearchBody body =
                RequestBodies.read(req, maxBodyBytes, TranscriptSearchBody.class);
        List<TranscriptHit> hits = search(transcripts, ns, body);
        Json.send(res, 200, ListAnswer.all(hits.stream().map(TranscriptHitView::of).toList()));
    }

    /** Runs a search (also the {@code search_transcript} tool's). */
    static List<TranscriptHit> search(
            Transcripts transcripts, String ns, TranscriptSearchBody body) {
        return transcripts.search(
                ns, Fields.required(body.query(), "query"), body.conversation(), body.limit());
    }
}
