package dev.cairn.memory.extract;

import dev.cairn.safety.RedactionResult;
import dev.cairn.safety.SecretRedactor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What {@code POST extract} runs before persistence: extractor, then {@link QualityGate} on the
 * original text (so safety rules see what was said), then secret redaction of every candidate's
 * content (so neither the store nor the answer carries a secret). The caller persists STORE
 * outcomes as memories (source {@code extraction}) and PROPOSE outcomes as memory proposals.
 * Thread-safe if its parts are.
 */
public final class ExtractionPipeline {

    /**
     * A candidate with redacted content, the gate's decision and the redaction counts.
     *
     * @param candidate the candidate, content already redacted
     */
    public record Gated(
            Candidate candidate, QualityGate.Decision decision, RedactionResult redaction) {
        public Gated {
            Objects.requireNonNull(candidate, "candidate");
            Objects.requireNonNull(decision, "decision");
            Objects.requireNonNull(redaction, "redaction");
        }
    }

    private final MemoryExtractor extractor;
    private final QualityGate gate;
    private final SecretRedactor redactor;

    private ExtractionPipeline(
            MemoryExtractor extractor, QualityGate gate, SecretRedactor redactor) {
        this.extractor = Objects.requireNonNull(extractor, "extractor");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    public static ExtractionPipeline create(
            MemoryExtractor extractor, QualityGate gate, SecretRedactor redactor) {
        return new ExtractionPipeline(extractor, gate, redactor);
    }

    /** Rule-based extractor, default gate, standard redactor. */
    public static ExtractionPipeline defaults() {
        return new ExtractionPipeline(
                MemoryExtractor.ruleBased(), QualityGate.defaults(), SecretRedactor.standard());
    }

    /**
     * Runs the pipeline.
     *
     * @param isDuplicate whether a candidate already exists as a memory in the input's scope
     */
    public List<Gated> run(ExtractionInput input, Predicate<Candidate> isDuplicate) {
        List<Gated> out = new ArrayList<>();
        for (Candidate c : extractor.extract(input)) {
            QualityGate.Decision decision = gate.decide(c, input.scope(), isDuplicate);
            RedactionResult r = redactor.redact(c.content());
            Candidate safe = new Candidate(c.type(), r.text(), c.confidence(), c.rule());
            out.add(new Gated(safe, decision, r));
        }
        return List.copyOf(out);
    }
}
