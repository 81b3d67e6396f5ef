package dev.cairn.server.api;

import dev.cairn.judge.Evidence;
import dev.cairn.judge.Policy;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.PolicyRule;
import dev.cairn.judge.service.JudgeRequest;
import dev.cairn.judge.service.JudgeService;
import dev.cairn.judge.store.JudgementJson;
import dev.cairn.judge.store.StoredJudgement;
import dev.cairn.judge.store.StoredPolicy;
import dev.cairn.server.api.body.JudgeBody;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Authority;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        if (body.answer() == null) {
            throw new IllegalArgumentException("field 'answer' is required");
        }
        JudgeRequest request =
                new JudgeRequest(
                        body.query(),
                        body.answer(),
                        body.traceId(),
                        evidence(body.evidence()),
                        body.policy());
        StoredJudgement stored = judge.judge(ns, request);
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("judgementId", stored.id());
        if (!stored.answer().traceId().isEmpty()) {
            view.put("traceId", stored.answer().traceId());
        }
        view.putAll(JudgementJson.view(stored.judgement()));
        view.put("similarity", stored.similarity());
        view.put("createdAt", stored.createdAt().toString());
        Json.send(res, 200, view);
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
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("judgementId", stored.id());
        view.put("answerId", stored.answerId());
        view.put("traceId", stored.answer().traceId());
        view.put("query", stored.answer().query());
        view.put("answer", stored.answer().answer());
        view.put("evidence", JudgementJson.view(stored.answer().evidence()));
        view.put("plan", stored.answer().plan().name().toLowerCase(java.util.Locale.ROOT));
        view.putAll(JudgementJson.view(stored.judgement()));
        view.put("similarity", stored.similarity());
        view.put("createdAt", stored.createdAt().toString());
        Json.send(res, 200, view);
    }

    // ---- policies ----------------------------------------------------------------------

    private void listPolicies(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        List<StoredPolicy> stored = judge.policies().list(ns);
        List<Map<String, Object>> items = new ArrayList<>();
        if (stored.stream().noneMatch(p -> p.name().equals(PolicyRegistry.DEFAULT_POLICY))) {
            items.add(builtInView());
        }
        for (StoredPolicy p : stored) {
            items.add(policyView(p, false));
        }
        items.sort((a, b) -> ((String) a.get("name")).compareTo((String) b.get("name")));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("items", items);
        answer.put("total", items.size());
        Json.send(res, 200, answer);
    }

    private void getPolicy(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String name = req.path().pathParameters().get("name");
        var stored = judge.policies().find(ns, name);
        if (stored.isPresent()) {
            Json.send(res, 200, policyView(stored.get(), true));
        } else if (name.equals(PolicyRegistry.DEFAULT_POLICY)) {
            Json.send(res, 200, builtInView());
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
        Json.send(res, replaced ? 200 : 201, policyView(stored, true));
    }

    private static Map<String, Object> builtInView() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", PolicyRegistry.DEFAULT_POLICY);
        view.put("builtIn", true);
        view.put("rules", rules(PolicyRegistry.defaultPolicy()));
        return view;
    }

    private static Map<String, Object> policyView(StoredPolicy p, boolean withDocument) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", p.name());
        view.put("builtIn", false);
        view.put("rules", rules(Policy.parse(p.name(), p.document())));
        if (withDocument) {
            view.put("document", p.document());
        }
        view.put("updatedAt", p.updatedAt().toString());
        return view;
    }

    private static List<Map<String, Object>> rules(Policy policy) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (PolicyRule r : policy.rules()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("kind", r.kind().id());
            m.put("weight", r.weight());
            out.add(m);
        }
        return out;
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
