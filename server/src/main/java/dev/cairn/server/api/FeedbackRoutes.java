package dev.cairn.server.api;

import dev.cairn.api.body.FeedbackBody;
import dev.cairn.api.view.FeedbackViews;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.server.api.body.TrainBody;
import dev.cairn.server.api.view.AdaptationViews;
import dev.cairn.server.api.view.GovernanceViews;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Relevance feedback and the adaptations trained from it, under {@code /v1/namespaces/{ns}}: {@code
 * POST/GET feedback} (write / read), {@code POST adaptation/train}, {@code GET/DELETE adaptation}
 * (admin). An adaptation is retrieve's ({@code subject} {@code documents}, the default) or recall's
 * ({@code memories}): the body's {@code subject} or the query parameter {@code ?subject=} says
 * which.
 */
public final class FeedbackRoutes implements HttpService {

    private static final String BASE = "/v1/namespaces/{ns}";

    private static final QueryParameters SUBJECT = QueryParameters.accept("subject");

    private final KnowledgeBase knowledge;
    private final MemoryService memory;
    private final Store store;
    private final long maxBodyBytes;

    public FeedbackRoutes(KnowledgeBase knowledge, MemoryService memory, long maxBodyBytes) {
        this.knowledge = knowledge;
        this.memory = memory;
        this.store = knowledge.store();
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(BASE + "/feedback", this::record)
                .get(BASE + "/feedback", QueryParameters.PAGE.to(this::list))
                .post(BASE + "/adaptation/train", this::train)
                .get(BASE + "/adaptation", SUBJECT.to(this::adaptation))
                .delete(BASE + "/adaptation", SUBJECT.to(this::rollback));
        Routes.methodNotAllowed(
                rules, BASE + "/feedback", BASE + "/adaptation/train", BASE + "/adaptation");
    }

    private void record(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        FeedbackBody body = RequestBodies.read(req, maxBodyBytes, FeedbackBody.class);
        List<Judgment> recorded = knowledge.feedback().record(ns, judgments(body));
        Json.send(
                res,
                201,
                new FeedbackViews.Recorded(
                        recorded.size(),
                        recorded.stream().map(GovernanceViews::judgment).toList()));
    }

    /** The body's judgments, each checked (query, target id alphabet, grade, source). */
    static List<Judgment> judgments(FeedbackBody body) {
        if (body.query().isBlank()) {
            throw new IllegalArgumentException("field 'query' must not be empty");
        }
        if (body.relevant().isEmpty()) {
            throw new IllegalArgumentException(
                    "field 'relevant' must list at least one {documentId|chunkId|memoryId, grade?}");
        }
        Judgment.Source source = Judgment.Source.parse(body.source());
        List<Judgment> out = new ArrayList<>();
        for (int i = 0; i < body.relevant().size(); i++) {
            FeedbackBody.Item item = body.relevant().get(i);
            if (item == null) {
                throw new IllegalArgumentException("relevant[" + i + "] must be an object");
            }
            List<Judgment.Target> targets = new ArrayList<>();
            if (item.documentId() != null) {
                targets.add(new Judgment.Target(Judgment.Kind.DOCUMENT, item.documentId()));
            }
            if (item.chunkId() != null) {
                targets.add(new Judgment.Target(Judgment.Kind.CHUNK, item.chunkId()));
            }
            if (item.memoryId() != null) {
                targets.add(new Judgment.Target(Judgment.Kind.MEMORY, item.memoryId()));
            }
            if (targets.size() != 1) {
                throw new IllegalArgumentException(
                        "relevant["
                                + i
                                + "] must name exactly one of documentId, chunkId, memoryId");
            }
            out.add(Judgment.draft(body.query(), targets.getFirst(), item.grade(), source));
        }
        return out;
    }

    private void list(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        Json.send(
                res,
                200,
                Paging.answer(
                        knowledge.feedback().page(ns, Paging.pageRequest(req)),
                        GovernanceViews::judgment));
    }

    private void train(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.ADMIN);
        TrainBody body =
                RequestBodies.readOptional(
                        req, maxBodyBytes, TrainBody.class, new TrainBody(null, null, null));
        Adaptation trained =
                switch (body.adaptationSubject()) {
                    case DOCUMENTS -> knowledge.tune(ns, body.options());
                    case MEMORIES -> memory.tune(ns, body.options());
                };
        Json.send(res, 201, AdaptationViews.AdaptationView.of(trained));
    }

    private void adaptation(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.ADMIN);
        Json.send(res, 200, state(ns, subject(req)));
    }

    private void rollback(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.ADMIN);
        AdaptationSubject subject = subject(req);
        switch (subject) {
            case DOCUMENTS -> knowledge.rollback(ns);
            case MEMORIES -> memory.rollbackAdaptation(ns);
        }
        Json.send(res, 200, state(ns, subject));
    }

    /** {@code ?subject=documents|memories}, documents when absent. */
    private static AdaptationSubject subject(ServerRequest req) {
        return req.query()
                .first("subject")
                .map(AdaptationSubject::parse)
                .orElse(AdaptationSubject.DOCUMENTS);
    }

    private AdaptationViews.AdaptationState state(String ns, AdaptationSubject subject) {
        List<Adaptation> all =
                switch (subject) {
                    case DOCUMENTS -> knowledge.adaptations().all(ns);
                    case MEMORIES -> memory.adaptations().all(ns);
                };
        return new AdaptationViews.AdaptationState(
                all.stream()
                        .filter(a -> a.state() == Adaptation.State.ACTIVE)
                        .findFirst()
                        .map(AdaptationViews.AdaptationView::of)
                        .orElse(null),
                all.stream().map(AdaptationViews.AdaptationView::of).toList());
    }
}
