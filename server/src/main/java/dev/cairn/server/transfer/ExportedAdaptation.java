package dev.cairn.server.transfer;

import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.server.api.AdaptationSubject;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * One trained query adaptation ({@code cairn tune}) as one line of the export file: its version,
 * state and the version it replaced, the adapter's matrix (base64 of little-endian float32, {@code
 * dimensions} squared of them), the dense weight, judged-relevant prior and learned fusion weights
 * ({@code fusion}, one per {@code LearnedFusion.FEATURES}; absent or empty, as in files written
 * before it, for none) that go with it, and the held-back report that decided its state; {@code
 * subject} says whose it is, retrieve's ({@code documents}, also when absent, as in files written
 * before recall's adaptations) or recall's ({@code memories}). An adapter maps query vectors of the
 * header's model: an import into a server embedding with another model skips it.
 */
record ExportedAdaptation(
        String type,
        String subject,
        int version,
        Adaptation.State state,
        int replaces,
        int dimensions,
        String matrix,
        double denseWeight,
        double priorWeight,
        Map<String, Integer> prior,
        double[] fusion,
        TuneReport report,
        Instant createdAt) {

    static final String TYPE = "adaptation";

    static ExportedAdaptation of(AdaptationSubject subject, Adaptation a) {
        return new ExportedAdaptation(
                TYPE,
                subject.wireName(),
                a.version(),
                a.state(),
                a.replaces(),
                a.adapter().dimensions(),
                Base64.getEncoder().encodeToString(a.adapter().toBytes()),
                a.denseWeight(),
                a.prior().weight(),
                a.prior().relevantQueries(),
                a.fusion().weights(),
                a.report(),
                a.createdAt());
    }

    /** Whose adaptation this is: documents when the line does not say. */
    AdaptationSubject adaptationSubject() {
        return subject == null ? AdaptationSubject.DOCUMENTS : AdaptationSubject.parse(subject);
    }

    /**
     * The adaptation this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    Adaptation adaptation() {
        byte[] bytes = Base64.getDecoder().decode(matrix);
        if (dimensions < 1 || bytes.length != dimensions * dimensions * Float.BYTES) {
            throw new IllegalArgumentException(
                    "illegal adaptation "
                            + version
                            + ": "
                            + bytes.length
                            + " matrix bytes for "
                            + dimensions
                            + " dimensions");
        }
        return new Adaptation(
                version,
                state,
                replaces,
                QueryAdapter.fromBytes(dimensions, bytes),
                denseWeight,
                new JudgedPrior(priorWeight, prior),
                fusion == null ? LearnedFusion.NONE : new LearnedFusion(fusion),
                java.util.Objects.requireNonNull(report, "report"),
                createdAt);
    }
}
