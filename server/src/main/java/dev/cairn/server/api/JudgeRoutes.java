package dev.cairn.server.api;

import dev.cairn.api.body.JudgeBody;
import dev.cairn.api.view.JudgeViews;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.judge.Evidence;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.service.JudgeRequest;
import dev.cairn.judge.service.JudgeService;
import dev.cairn.judge.store.StoredJudgement;
import dev.cairn.judge.store.StoredPolicy;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.server.api.view.GovernanceViews;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The judge under {@code /v1/namespaces/{ns}}: {@code POST judge}, {@code GET judgements/{id}}, and
 * the namespace's policy documents, {@code GET policies}, {@code GET/PUT policies/{name}}.
 * Thread-safe.
 */
public final class JudgeRoutes implements HttpService {

    private static final String BASE = "/v1/namespaces/{ns}";
    private static final Set<String> YAML_TYPES = Set.of("yaml", "x-yaml", "vnd.yaml", "plain");

    private final JudgeService judge;
    private final Store store;
    private final long maxBodyBytes;

    public JudgeRoutes(JudgeService judge, Store store, long maxBodyBytes) {
        this.judge = judge;
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(BASE + "/judge", this::judge)
                .get(BASE + "/judgements/{id}", this::judgement)
                .get(BASE + "/policies", this::listPolicies)
                .get(BASE + "/policies/{name}", this::getPolicy)
                .put(BASE + "/policies/{name}", this::putPolicy);
        Routes.methodNotAllowed(
                rules,
                BASE + "/judge",
                BASE + "/judgements/{id}",
                BASE + "/policies",
                BASE + "/policies/{name}");
    }

    // ---- judge -------------------------------------------------------------------------

    private void judge(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        JudgeBody body = RequestBodies.read(req, maxBodyBytes, JudgeBody.class);
        StoredJudgement stored = judge.judge(ns, request(body));
        Json.send(res, 200, GovernanceViews.judged(stored));
    }

    /** The judge request of a body; shared with the MCP {@code judge_answer} tool. */
    public static JudgeRequest request(JudgeBody body) {
        if (body.answer() == null) {
            throw new IllegalArgumentException("field 'answer' is required");
        }
        return new JudgeRequest(
                body.query(),
                body.answer(),
                body.traceId(),
                evidence(body.evidence()),
                body.policy());
    }

    private static List<Evidence> evidence(List<JudgeBody.EvidenceItem> items) {
        List<Evidence> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JudgeBody.EvidenceItem item = items.get(i);
            if (item.id() == null || item.id().isBlank()) {
                throw new IllegalArgumentException("evidence[" + i + "].id is required");
            }
            if (item.text() == null) {
                throw new IllegalArgumentException("evidence[" + i + "].text is required");
            }
            out.add(
                    new Evidence(
                            item.id(),
                            item.text(),
                            Objects.requireNonNullElse(item.title(), ""),
                            item.authority() == null
                                    ? Authority.DEFAULT
                                    : Authority.parse(item.authority())));
        }
        return out;
    }

    private void judgement(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("id");
        StoredJudgement stored =
                judge.judgement(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "judgement '" + id + "' does not exist"));
        Json.send(res, 200, GovernanceViews.stored(stored));
    }

    // ---- policies ----------------------------------------------------------------------

    private void listPolicies(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        List<StoredPolicy> stored = judge.policies().list(ns);
        List<JudgeViews.PolicyView> items = new ArrayList<>();
        if (stored.stream().noneMatch(p -> p.name().equals(PolicyRegistry.DEFAULT_POLICY))) {
            items.add(GovernanceViews.defaultPolicy());
        }
        for (StoredPolicy p : stored) {
            items.add(GovernanceViews.policy(p, false));
        }
        items.sort(Comparator.comparing(JudgeViews.PolicyView::name));
        Json.send(res, 200, ListAnswer.all(items));
    }

    private void getPolicy(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String name = req.path().pathParameters().get("name");
        var stored = judge.policies().find(ns, name);
        if (stored.isPresent()) {
            Json.send(res, 200, GovernanceViews.policy(stored.get(), true));
        } else if (name.equals(PolicyRegistry.DEFAULT_POLICY)) {
            Json.send(res, 200, GovernanceViews.defaultPolicy());
        } else {
            throw new NoSuchElementException("policy '" + name + "' does not exist");
        }
    }

    private void putPolicy(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.REVIEW);
        String name = req.path().pathParameters().get("name");
        String document = new String(readDocument(req), StandardCharsets.UTF_8);
        if (document.isBlank()) {
            throw new IllegalArgumentException(
                    "request body is empty, expected a policy document (YAML or JSON)");
        }
        boolean replaced = judge.policies().put(ns, name, document);
        StoredPolicy stored = judge.policies().find(ns, name).orElseThrow();
        Json.send(res, replaced ? 200 : 201, GovernanceViews.policy(stored, true));
    }

    /** The raw body: JSON, or YAML ({@code application/yaml}, {@code text/yaml}, text/plain). */
    private byte[] readDocument(ServerRequest req) {
        var type = req.headers().contentType();
        if (type.isEmpty()
                || type.get().mediaType().subtype().equals("json")
                || type.get().mediaType().subtype().endsWith("+json")) {
            return Json.readBody(req, maxBodyBytes);
        }
        if (!YAML_TYPES.contains(type.get().mediaType().subtype())) {
            throw HttpProblem.unsupportedMediaType(type.get().text());
        }
        var declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBodyBytes) {
            throw HttpProblem.payloadTooLarge(maxBodyBytes);
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
            if (body.length > maxBodyBytes) {
                throw HttpProblem.payloadTooLarge(maxBodyBytes);
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
