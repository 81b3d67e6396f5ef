package dev.cairn.server.api;

import dev.cairn.memory.MemorySource;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.extract.ExtractionInput;
import dev.cairn.memory.extract.ExtractionPipeline;
import dev.cairn.memory.proposal.NewProposal;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.server.api.body.ExtractBody;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        String actor = agentId.isEmpty() ? "extract" : agentId;
        List<Map<String, Object>> candidates = new ArrayList<>();
        for (ExtractionPipeline.Gated g :
                pipeline.run(
                        new ExtractionInput(query, response, scope),
                        c -> memory.exists(scope, c.type(), c.content()))) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("type", g.candidate().type().name());
            v.put("content", g.candidate().content());
            v.put("confidence", g.candidate().confidence());
            switch (g.decision().outcome()) {
                case STORE -> {
                    try {
                        MemoryPort.Written written =
                                memory.write(
                                        NewMemory.of(
                                                        scope,
                                                        g.candidate().type(),
                                                        g.candidate().content())
                                                .withConfidence(g.candidate().confidence())
                                                .withSource(
                                                        MemorySource.of(
                                                                MemorySource.Kind.EXTRACTION,
                                                                g.candidate().rule())),
                                        actor);
                        v.put("status", "stored");
                        v.put("reason", g.decision().reason());
                        v.put("memoryId", written.id());
                    } catch (WriteBlockedException e) {
                        v.put("status", "rejected");
                        v.put("reason", "blocked: " + e.rule().ruleName());
                    }
                }
                case PROPOSE -> {
                    Proposal p =
                            proposals.file(
                                    ns,
                                    new NewProposal(
                                            ProposalType.MEMORY,
                                            title(g.candidate().content()),
                                            "Extracted ("
                                                    + g.candidate().rule()
                                                    + "): "
                                                    + g.decision().reason(),
                                            g.candidate().content(),
                                            scope.taskName(),
                                            agentId,
                                            g.candidate().type()));
                    v.put("status", "proposed");
                    v.put("reason", g.decision().reason());
                    v.put("proposalId", p.id());
                }
                case REJECT -> {
                    v.put("status", "rejected");
                    v.put("reason", g.decision().reason());
                }
            }
            candidates.add(v);
        }
        Json.send(res, 200, Map.of("candidates", candidates));
    }

    static String title(String content) {
        String flat = content.replaceAll("\\s+", " ").strip();
        return flat.length() <= 80 ? flat : flat.substring(0, 79) + "…";
    }
}
