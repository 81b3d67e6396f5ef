package dev.cairn.server.api;

import dev.cairn.api.body.ExtractBody;
import dev.cairn.api.view.ExtractAnswer;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.extract.Candidate;
import dev.cairn.memory.extract.ExtractionInput;
import dev.cairn.memory.extract.ExtractionPipeline;
import dev.cairn.memory.proposal.NewProposal;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.safety.WriteBlockedException;
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
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/namespaces/{ns}/extract}: runs the {@link ExtractionPipeline} on a query and its
 * response; candidates the quality gate stores become memories (source {@code extraction}), those
 * it proposes become memory proposals, the rest are answered as rejected with the gate's reason.
 * Needs {@code write}. Thread-safe.
 */
public final class ExtractRoutes implements HttpService {

    private final Store store;
    private final ExtractionPipeline pipeline;
    private final Proposals proposals;
    private final MemoryPort memory;
    private final long maxBodyBytes;

    public ExtractRoutes(
            Store store,
            ExtractionPipeline pipeline,
            Proposals proposals,
            MemoryPort memory,
            long maxBodyBytes) {
        this.store = store;
        this.pipeline = pipeline;
        this.proposals = proposals;
        this.memory = memory;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        String path = "/v1/namespaces/{ns}/extract";
        rules.post(path, this::extract);
        Routes.methodNotAllowed(rules, path);
    }

    private void extract(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        ExtractBody body = RequestBodies.read(req, maxBodyBytes, ExtractBody.class);
        String query = Fields.required(body.query(), "query");
        if (body.response() == null) {
            throw new IllegalArgumentException("field 'response' is required (it may be empty)");
        }
        String response = body.response();
        String agentId = body.agentId();
        Scope scope = Scope.of(ns, body.userId(), agentId).withSession(body.sessionName());
        List<ExtractAnswer.Candidate> candidates = new ArrayList<>();
        for (ExtractionPipeline.Gated g :
                pipeline.run(
                        new ExtractionInput(query, response, scope),
                        c -> memory.exists(scope, c.type(), c.content()))) {
            candidates.add(outcome(ns, scope, agentId, g));
        }
        Json.send(res, 200, new ExtractAnswer(candidates));
    }

    /** Stores, proposes or rejects one gated candidate, as the quality gate decided. */
    private ExtractAnswer.Candidate outcome(
            String ns, Scope scope, String agentId, ExtractionPipeline.Gated g) {
        String actor = agentId.isEmpty() ? "extract" : agentId;
        Candidate c = g.candidate();
        String reason = g.decision().reason();
        return switch (g.decision().outcome()) {
            case STORE -> {
                try {
                    MemoryPort.Written written =
                            memory.write(
                                    NewMemory.of(scope, c.type(), c.content())
                                            .withConfidence(c.confidence())
                                            .withSource(
                                                    MemorySource.of(
                                                            MemorySource.Kind.EXTRACTION,
                                                            c.rule())),
                                    actor);
                    yield answer(c, "stored", reason, written.id(), null);
                } catch (WriteBlockedException e) {
                    yield answer(c, "rejected", "blocked: " + e.rule().ruleName(), null, null);
                }
            }
            case PROPOSE -> {
                Proposal p =
                        proposals.file(
                                ns,
                                new NewProposal(
                                        ProposalType.MEMORY,
                                        title(c.content()),
                                        "Extracted (" + c.rule() + "): " + reason,
                                        c.content(),
                                        scope.taskName(),
                                        agentId,
                                        c.type()));
                yield answer(c, "proposed", reason, null, p.id());
            }
            case REJECT -> answer(c, "rejected", reason, null, null);
        };
    }

    private static ExtractAnswer.Candidate answer(
            Candidate c, String status, String reason, String memoryId, String proposalId) {
        return new ExtractAnswer.Candidate(
                c.type().name(), c.content(), c.confidence(), status, reason, memoryId, proposalId);
    }

    static String title(String content) {
        String flat = content.replaceAll("\\s+", " ").strip();
        return flat.length() <= 80 ? flat : flat.substring(0, 79) + "…";
    }
}
