package dev.cairn.server.api;

import dev.cairn.api.body.ApplyBody;
import dev.cairn.api.body.NewProposalBody;
import dev.cairn.api.body.ReviewBody;
import dev.cairn.api.view.MemoryView;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.proposal.NewProposal;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalFilter;
import dev.cairn.memory.proposal.ProposalStatus;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Proposals under {@code /v1/namespaces/{ns}/proposals}: create ({@code write}), list and get
 * ({@code read}), review and archive ({@code review}), apply ({@code review}; see {@link
 * MemoryPort}). Thread-safe.
 */
public final class ProposalRoutes implements HttpService {

    static final String BASE = "/v1/namespaces/{ns}/proposals";

    private final Store store;
    private final Proposals proposals;
    private final MemoryPort memory;
    private final long maxBodyBytes;

    public ProposalRoutes(Store store, Proposals proposals, MemoryPort memory, long maxBodyBytes) {
        this.store = store;
        this.proposals = proposals;
        this.memory = memory;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(BASE, this::create)
                .get(
                        BASE,
                        QueryParameters.PAGE
                                .and("type", "status", "taskName", "agentName", "q")
                                .to(this::list))
                .get(BASE + "/{id}", this::get)
                .post(BASE + "/{id}/review", this::review)
                .post(BASE + "/{id}/apply", this::apply)
                .post(BASE + "/{id}/archive", this::archive);
        Routes.methodNotAllowed(
                rules,
                BASE,
                BASE + "/{id}",
                BASE + "/{id}/review",
                BASE + "/{id}/apply",
                BASE + "/{id}/archive");
    }

    private void create(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        NewProposalBody body = RequestBodies.read(req, maxBodyBytes, NewProposalBody.class);
        Proposal p = proposals.file(ns, newProposal(body));
        Json.send(res, 201, MemoryViews.proposal(p));
    }

    /** A proposal from a request body (also the arguments of the proposal tools). */
    static NewProposal newProposal(NewProposalBody body) {
        return new NewProposal(
                ProposalType.parse(Fields.required(body.type(), "type")),
                Fields.required(body.title(), "title"),
                body.description(),
                Fields.required(body.content(), "content"),
                body.taskName(),
                body.agentName(),
                memoryType(body.memoryType()));
    }

    static MemoryType memoryType(String name) {
        try {
            return MemoryType.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown memory type: '"
                            + name
                            + "', must be one of "
                            + Arrays.stream(MemoryType.values())
                                    .map(Enum::name)
                                    .collect(Collectors.joining(", ")));
        }
    }

    private void list(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        PageRequest page = Paging.pageRequest(req);
        ProposalFilter filter =
                new ProposalFilter(
                        req.query().first("type").stream()
                                .flatMap(s -> Arrays.stream(s.split(",")))
                                .filter(s -> !s.isBlank())
                                .map(ProposalType::parse)
                                .collect(Collectors.toSet()),
                        req.query().first("status").stream()
                                .flatMap(s -> Arrays.stream(s.split(",")))
                                .filter(s -> !s.isBlank())
                                .map(ProposalStatus::parse)
                                .collect(Collectors.toSet()),
                        req.query().first("taskName").orElse(""),
                        req.query().first("agentName").orElse(""),
                        req.query().first("q").orElse(""));
        Json.send(res, 200, Paging.answer(proposals.list(ns, filter, page), MemoryViews::proposal));
    }

    private void get(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        Json.send(
                res,
                200,
                MemoryViews.proposal(proposals.get(ns, req.path().pathParameters().get("id"))));
    }

    private void review(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.REVIEW);
        ReviewBody body = RequestBodies.read(req, maxBodyBytes, ReviewBody.class);
        ProposalStatus decision = reviewDecision(Fields.required(body.status(), "status"));
        proposals.review(
                ns,
                req.path().pathParameters().get("id"),
                decision,
                body.reviewer().isBlank() ? caller(req) : body.reviewer(),
                body.reviewNote());
        res.status(204).send();
    }

    /**
     * A review decides {@code accepted} or {@code rejected}; the other statuses are reached by
     * creating, applying or archiving, so the error names only the two a reviewer may send.
     */
    static ProposalStatus reviewDecision(String status) {
        String wire = status.strip().toLowerCase(java.util.Locale.ROOT);
        if (wire.equals(ProposalStatus.ACCEPTED.wireName())) {
            return ProposalStatus.ACCEPTED;
        }
        if (wire.equals(ProposalStatus.REJECTED.wireName())) {
            return ProposalStatus.REJECTED;
        }
        throw new IllegalArgumentException(
                "field 'status' must be accepted or rejected, got '" + status + "'");
    }

    private void apply(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.REVIEW);
        ApplyBody body =
                RequestBodies.readOptional(req, maxBodyBytes, ApplyBody.class, new ApplyBody(""));
        String appliedBy = body.appliedBy().isBlank() ? caller(req) : body.appliedBy();
        Proposals.Applied applied =
                proposals.apply(
                        ns,
                        req.path().pathParameters().get("id"),
                        appliedBy,
                        draft -> memory.write(draft, appliedBy).id());
        Json.send(
                res,
                200,
                new MemoryView.Applied(
                        memory.view(ns, applied.memoryId()), applied.proposal().id()));
    }

    /**
     * The token's name, for a review or apply that names nobody: Orka-style callers send neither
     * {@code reviewer} nor an apply body, and the token already says who acts.
     */
    private static String caller(ServerRequest req) {
        return AuthFilter.principal(req).token().name();
    }

    private void archive(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.REVIEW);
        proposals.archive(ns, req.path().pathParameters().get("id"));
        res.status(204).send();
    }
}
