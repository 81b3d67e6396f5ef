package dev.cairn.judge;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@link Judge}: claims, citations, support, contradiction, policy. Immutable; thread-safe when
 * its similarity function and secret detector are.
 */
final class DefaultJudge implements Judge {

    private static final System.Logger LOG = System.getLogger(DefaultJudge.class.getName());

    private final JudgeConfig config;
    private final SimilarityFunction similarity;
    private final PolicyRegistry policies;
    private final SecretDetector secrets;

    DefaultJudge(
            JudgeConfig config,
            SimilarityFunction similarity,
            PolicyRegistry policies,
            SecretDetector secrets) {
        this.config = Objects.requireNonNull(config, "config");
        this.similarity = Objects.requireNonNull(similarity, "similarity");
        this.policies = Objects.requireNonNull(policies, "policies");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    /** One sentence of one evidence item, analysed once per judgement. */
    private record EvidenceSentence(int evidence, Statement statement) {}

    @Override
    public Judgement judge(JudgeInput input) {
        long bytes = utf8Length(input.answer());
        if (bytes > config.maxAnswerBytes()) {
            throw new PayloadTooLargeException("answer", bytes, config.maxAnswerBytes());
        }
        Policy policy = policies.policy(input.policy());
        List<Evidence> evidence = input.evidence();
        List<Claim> claims = ClaimExtractor.extract(input.answer(), evidence);

        List<EvidenceSentence> sentences = new ArrayList<>();
        List<List<Quantities.Quantity>> evidenceQuantities = new ArrayList<>();
        List<Set<String>> evidenceStems = new ArrayList<>();
        for (int k = 0; k < evidence.size(); k++) {
            List<Quantities.Quantity> all = new ArrayList<>();
            Set<String> stems = new java.util.HashSet<>();
            for (String unit : ClaimExtractor.units(evidence.get(k).text())) {
                for (String s : Sentences.split(unit)) {
                    Statement st = Statement.of(s);
                    sentences.add(new EvidenceSentence(k, st));
                    all.addAll(st.quantities());
                    stems.addAll(st.stems());
                }
            }
            evidenceQuantities.add(all);
            evidenceStems.add(stems);
        }
        double[][] sim =
                similarity.similarities(
                        claims.stream().map(Claim::text).toList(),
                        sentences.stream().map(es -> es.statement().text()).toList());

        List<ClaimVerdict> verdicts = new ArrayList<>();
        int citations = 0;
        int supportingCitations = 0;
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            Statement statement = Statement.of(claim.text());
            List<Quantities.Quantity> quantities = statement.quantities();
            Comparison[] best = new Comparison[evidence.size()];
            Comparison[] supporting = new Comparison[evidence.size()];
            String[] contradiction = new String[evidence.size()];
            Comparison[] compared = new Comparison[sentences.size()];
            double bestAligned = 0;
            for (int s = 0; s < sentences.size(); s++) {
                EvidenceSentence es = sentences.get(s);
                Comparison c =
                        Comparison.of(
                                statement,
                                es.statement(),
                                sim[i][s],
                                config.similarityWeight(),
                                config.cues());
                compared[s] = c;
                bestAligned = Math.max(bestAligned, c.score());
                int k = es.evidence();
                if (best[k] == null || c.score() > best[k].score()) {
                    best[k] = c;
                }
                if (c.score() >= config.supportThreshold()
                        && !c.cueConflict()
                        && c.quantityConflict().isEmpty()
                        && c.actionConflict().isEmpty()
                        && (supporting[k] == null || c.score() > supporting[k].score())) {
                    supporting[k] = c;
                }
            }
            // a cue contradicts only on a sentence aligned with the claim about as well as the
            // best one: a loosely related sentence of a long abstract reports another finding
            double aligned = bestAligned - config.alignmentMargin();
            for (int s = 0; s < sentences.size(); s++) {
                Comparison c = compared[s];
                int k = sentences.get(s).evidence();
                if (contradiction[k] == null
                        && c.overlap() >= config.contextThreshold()
                        && c.score() >= config.contradictionThreshold()
                        && c.score() >= aligned) {
                    boolean allStated =
                            quantities.stream()
                                    .allMatch(q -> Comparison.stated(q, evidenceQuantities.get(k)));
                    contradiction[k] = contradictionReason(c, allStated);
                }
            }
            List<String> reasons = new ArrayList<>();
            Set<String> supportedBy = new LinkedHashSet<>();
            Set<String> contradictedBy = new LinkedHashSet<>();
            for (int k = 0; k < evidence.size(); k++) {
                if (contradiction[k] != null) {
                    contradictedBy.add(evidence.get(k).id());
                    reasons.add("[" + evidence.get(k).id() + "] contradicts: " + contradiction[k]);
                }
            }
            for (int k : claim.cited()) {
                citations++;
                String id = evidence.get(k).id();
                String why =
                        supportFailure(
                                best[k], supporting[k], quantities, evidenceQuantities.get(k));
                // every action the claim names must be one the evidence names, like its numbers:
                // a step list that says "restart" does not support "reload" in a longer claim
                String action = Comparison.actionConflict(statement.stems(), evidenceStems.get(k));
                if (why.isEmpty() && !action.isEmpty()) {
                    why = "a different action: " + action;
                }
                if (why.isEmpty() && !contradictedBy.contains(id)) {
                    supportedBy.add(id);
                    supportingCitations++;
                    reasons.add("[" + id + "] supports: " + describe(supporting[k]));
                } else {
                    reasons.add(
                            "["
                                    + id
                                    + "] does not support: "
                                    + (why.isEmpty() ? "it contradicts the claim" : why));
                }
            }
            for (String marker : claim.unresolved()) {
                citations++;
                reasons.add("citation [" + marker + "] names no evidence");
            }
            relationContradictions(input, claim, supportedBy, contradictedBy, reasons);
            if (claim.cited().isEmpty() && claim.unresolved().isEmpty()) {
                reasons.add("no citation");
            }
            verdicts.add(
                    new ClaimVerdict(
                            claim.text(),
                            claim.cited().stream().map(k -> evidence.get(k).id()).toList(),
                            !supportedBy.isEmpty(),
                            !contradictedBy.isEmpty(),
                            List.copyOf(supportedBy),
                            List.copyOf(contradictedBy),
                            reasons));
        }

        int n = verdicts.size();
        long supported = verdicts.stream().filter(ClaimVerdict::supported).count();
        long contradicted = verdicts.stream().filter(ClaimVerdict::contradicted).count();
        double coverage = n == 0 ? 1.0 : (double) supported / n;
        double precision = citations == 0 ? 1.0 : (double) supportingCitations / citations;
        double contradictionRate = n == 0 ? 0.0 : (double) contradicted / n;

        List<RuleResult> rules = PolicyEvaluator.evaluate(policy, input, claims, secrets);
        double compliance = PolicyEvaluator.compliance(rules);
        List<Violation> violations =
                rules.stream()
                        .filter(r -> !r.passed())
                        .map(r -> new Violation(r.rule(), r.detail()))
                        .toList();
        boolean grounded =
                coverage >= config.groundedCoverage()
                        && contradictionRate == 0.0
                        && violations.isEmpty();
        LOG.log(
                Level.DEBUG,
                () ->
                        String.format(
                                Locale.ROOT,
                                "judged %d claims against %d evidence items: coverage %.2f, precision %.2f, contradiction %.2f, compliance %.2f",
                                n,
                                evidence.size(),
                                coverage,
                                precision,
                                contradictionRate,
                                compliance));
        return new Judgement(
                coverage,
                precision,
                contradictionRate,
                compliance,
                grounded,
                policy.name(),
                verdicts,
                rules,
                violations);
    }

    /**
     * Why the compared sentence contradicts the claim, or null. A quantity conflict does not count
     * when the evidence item states every quantity of the claim elsewhere.
     */
    private static String contradictionReason(Comparison c, boolean quantitiesStatedInItem) {
        if (!c.quantityConflict().isEmpty() && !quantitiesStatedInItem) {
            return c.quantityConflict()
                    + " on a matching statement (overlap "
                    + f(c.overlap())
                    + ")";
        }
        String cue = cueDescription(c);
        return cue.isEmpty()
                ? null
                : cue + " on a matching statement (overlap " + f(c.overlap()) + ")";
    }

    /** The cue that sets the sentence against the claim, or empty. */
    private static String cueDescription(Comparison c) {
        if (c.polarityMismatch()) {
            return c.negationMismatch() ? "negation mismatch" : "antonyms " + c.antonym();
        }
        if (!c.direction().isEmpty()) {
            return "opposite directions of effect " + c.direction();
        }
        if (!c.effectConflict().isEmpty()) {
            return "effect stated vs denied: " + c.effectConflict();
        }
        if (!c.quantifierConflict().isEmpty()) {
            return "quantifiers " + c.quantifierConflict();
        }
        return "";
    }

    private String supportFailure(
            Comparison best,
            Comparison supporting,
            List<Quantities.Quantity> claimQuantities,
            List<Quantities.Quantity> evidenceQuantities) {
        if (best == null) {
            return "evidence has no text";
        }
        for (Quantities.Quantity q : claimQuantities) {
            if (q.kind() != Quantities.Kind.NAMED_NUMBER
                    && !Comparison.stated(q, evidenceQuantities)) {
                return q.kind().name().toLowerCase(Locale.ROOT)
                        + " "
                        + q.surface()
                        + " not in evidence";
            }
        }
        if (supporting == null) {
            if (best.score() < config.supportThreshold()) {
                return describe(best) + " < " + f(config.supportThreshold());
            }
            return "best match has "
                    + (!best.quantityConflict().isEmpty()
                            ? best.quantityConflict()
                            : best.cueConflict()
                                    ? cueDescription(best)
                                    : "a different action: " + best.actionConflict());
        }
        return "";
    }

    private String describe(Comparison c) {
        return "similarity "
                + f(c.similarity())
                + ", overlap "
                + f(c.overlap())
                + ", score "
                + f(c.score());
    }

    /**
     * Applies {@code contradicts} relations. Between evidence ids: a claim supported by one end is
     * contradicted by the other end (when that is among the evidence). Between entity names: a
     * claim that mentions one end is contradicted by every evidence item that mentions the other
     * end and not the first.
     */
    private static void relationContradictions(
            JudgeInput input,
            Claim claim,
            Set<String> supportedBy,
            Set<String> contradictedBy,
            List<String> reasons) {
        for (ContradictsRelation r : input.contradicts()) {
            for (String[] ends : new String[][] {{r.from(), r.to()}, {r.to(), r.from()}}) {
                String mine = ends[0].strip();
                String other = ends[1].strip();
                Evidence otherEvidence = evidenceById(input.evidence(), other);
                if (otherEvidence != null && evidenceById(input.evidence(), mine) != null) {
                    if (containsIgnoreCase(supportedBy, mine)
                            && contradictedBy.add(otherEvidence.id())) {
                        reasons.add(
                                "["
                                        + otherEvidence.id()
                                        + "] contradicts: contradicts relation with ["
                                        + mine
                                        + "], which supports the claim");
                    }
                } else if (mentions(claim.text(), mine) && !mentions(claim.text(), other)) {
                    for (Evidence e : input.evidence()) {
                        if (mentions(e.text(), other)
                                && !mentions(e.text(), mine)
                                && contradictedBy.add(e.id())) {
                            reasons.add(
                                    "["
                                            + e.id()
                                            + "] contradicts: it is about '"
                                            + other
                                            + "', which contradicts '"
                                            + mine
                                            + "' in the claim");
                        }
                    }
                }
            }
        }
    }

    private static Evidence evidenceById(List<Evidence> evidence, String id) {
        for (Evidence e : evidence) {
            if (e.id().equalsIgnoreCase(id)) {
                return e;
            }
        }
        return null;
    }

    private static boolean containsIgnoreCase(Set<String> ids, String id) {
        return ids.stream().anyMatch(x -> x.equalsIgnoreCase(id));
    }

    private static boolean mentions(String text, String name) {
        return Pattern.compile(
                        "(?<![\\p{L}\\p{N}])" + Pattern.quote(name) + "(?![\\p{L}\\p{N}])",
                        Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
                .matcher(text)
                .find();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static long utf8Length(String s) {
        if (s.length() * 3L <= Integer.MAX_VALUE && s.length() <= 1 << 14) {
            return s.getBytes(StandardCharsets.UTF_8).length;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
