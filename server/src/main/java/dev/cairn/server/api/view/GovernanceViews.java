package dev.cairn.server.api.view;

import dev.cairn.api.view.FeedbackViews;
import dev.cairn.api.view.JudgeViews;
import dev.cairn.api.view.NamespaceView;
import dev.cairn.judge.Policy;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.store.JudgementJson;
import dev.cairn.judge.store.StoredJudgement;
import dev.cairn.judge.store.StoredPolicy;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.store.Namespace;
import java.util.List;
import java.util.Locale;

/**
 * Namespaces, judgments and the judge's answers as the API shows them: domain values mapped onto
 * the wire records of {@code dev.cairn.api.view}. Stateless, thread-safe.
 */
public final class GovernanceViews {

    private GovernanceViews() {}

    public static NamespaceView namespace(Namespace ns) {
        return new NamespaceView(
                ns.name(), ns.description(), ns.createdAt().toString(), ns.recallScope().label());
    }

    /** One recorded judgment, its target under the id field of its kind. */
    public static FeedbackViews.JudgmentView judgment(Judgment j) {
        Judgment.Target t = j.target();
        return new FeedbackViews.JudgmentView(
                j.id(),
                j.query(),
                t.kind() == Judgment.Kind.DOCUMENT ? t.id() : null,
                t.kind() == Judgment.Kind.CHUNK ? t.id() : null,
                t.kind() == Judgment.Kind.MEMORY ? t.id() : null,
                j.grade(),
                j.source().wireName(),
                j.createdAt().toString());
    }

    /** {@code POST judge}: {@code traceId} only when the answer came with one. */
    public static JudgeViews.Judged judged(StoredJudgement s) {
        return new JudgeViews.Judged(
                s.id(),
                s.answer().traceId().isEmpty() ? null : s.answer().traceId(),
                JudgementJson.view(s.judgement()),
                s.similarity(),
                s.createdAt().toString());
    }

    /** {@code GET judgements/{id}}. */
    public static JudgeViews.Stored stored(StoredJudgement s) {
        return new JudgeViews.Stored(
                s.id(),
                s.answerId(),
                s.answer().traceId(),
                s.answer().query(),
                s.answer().answer(),
                JudgementJson.view(s.answer().evidence()),
                s.answer().plan().name().toLowerCase(Locale.ROOT),
                JudgementJson.view(s.judgement()),
                s.similarity(),
                s.createdAt().toString());
    }

    /** The built-in default policy: no document, no update time. */
    public static JudgeViews.PolicyView defaultPolicy() {
        return new JudgeViews.PolicyView(
                PolicyRegistry.DEFAULT_POLICY,
                true,
                rules(PolicyRegistry.defaultPolicy()),
                null,
                null);
    }

    /** A stored policy, its document only when fetched by name. */
    public static JudgeViews.PolicyView policy(StoredPolicy p, boolean withDocument) {
        return new JudgeViews.PolicyView(
                p.name(),
                false,
                rules(Policy.parse(p.name(), p.document())),
                withDocument ? p.document() : null,
                p.updatedAt().toString());
    }

    private static List<JudgeViews.Rule> rules(Policy policy) {
        return policy.rules().stream()
                .map(r -> new JudgeViews.Rule(r.name(), r.kind().id(), r.weight()))
                .toList();
    }
}
