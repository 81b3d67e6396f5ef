package dev.cairn.memory.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Scope;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Precision and recall of "should be remembered" and type accuracy of the rule-based extractor
 * through the default quality gate, on labelled query/response pairs; asserted against checked-in
 * baselines with a small tolerance (Anserini-style regression numbers).
 *
 * <p>A pair counts as predicted "remember" when any candidate passes the gate (STORE or PROPOSE);
 * type accuracy compares the most confident accepted candidate with the labelled types. {@code
 * storedPrecision} counts only pairs with a STORE outcome. Reports go to stdout and {@code
 * target/extraction-quality-<set>.json}.
 *
 * <p>Provenance matters: {@code labelled} was written with the rules; {@code heldout} and {@code
 * heldout2} were written later and measured blind once (heldout: P 0.933 R 0.467; heldout2: P 1.000
 * R 0.133, type 0.500) before the rules were broadened using their misses, so their current numbers
 * are in-sample too. {@code heldout3} (40 pairs, 20 positive) is the only set never used for
 * tuning: its numbers (P 0.750, R 0.450, type 0.889, stored precision 1.000: every false positive
 * there was a low-confidence fallback that the gate sends to review, not to memory) are the honest
 * estimate.
 */
class ExtractionQualityTest {

    static final double TOLERANCE = 0.02;

    record Labelled(
            String id, String query, String response, boolean remember, Set<MemoryType> types) {}

    record Metrics(
            int pairs,
            int tp,
            int fp,
            int fn,
            double precision,
            double recall,
            double typeAccuracy,
            double storedPrecision) {
        String json() {
            return String.format(
                    Locale.ROOT,
                    "{\"pairs\": %d, \"tp\": %d, \"fp\": %d, \"fn\": %d, \"precision\": %.3f,"
                            + " \"recall\": %.3f, \"typeAccuracy\": %.3f, \"storedPrecision\":"
                            + " %.3f}",
                    pairs,
                    tp,
                    fp,
                    fn,
                    precision,
                    recall,
                    typeAccuracy,
                    storedPrecision);
        }
    }

    static List<Labelled> load(String resource) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Labelled> out = new ArrayList<>();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(
                                Objects.requireNonNull(
                                        ExtractionQualityTest.class.getResourceAsStream(resource),
                                        resource),
                                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = json.readTree(line);
                Set<MemoryType> types = new HashSet<>();
                n.path("types").forEach(t -> types.add(MemoryType.parse(t.asText())));
                out.add(
                        new Labelled(
                                n.path("id").asText(),
                                n.path("query").asText(),
                                n.path("response").asText(),
                                n.path("remember").asBoolean(),
                                types));
            }
        }
        return out;
    }

    static Metrics measure(String name) throws IOException {
        List<Labelled> set = load("/extraction/" + name + ".jsonl");
        MemoryExtractor extractor = MemoryExtractor.ruleBased();
        QualityGate gate = QualityGate.defaults();
        Scope scope = Scope.of("eval");
        int tp = 0, fp = 0, fn = 0, typeOk = 0, stored = 0, storedOk = 0;
        List<String> misses = new ArrayList<>();
        for (Labelled l : set) {
            List<Candidate> accepted = new ArrayList<>();
            boolean anyStored = false;
            for (Candidate c :
                    extractor.extract(new ExtractionInput(l.query(), l.response(), scope))) {
                QualityGate.Outcome o = gate.decide(c, scope, x -> false).outcome();
                if (o.accepted()) {
                    accepted.add(c);
                }
                anyStored |= o == QualityGate.Outcome.STORE;
            }
            accepted.sort(Comparator.comparingDouble(Candidate::confidence).reversed());
            if (anyStored) {
                stored++;
                storedOk += l.remember() ? 1 : 0;
            }
            boolean predicted = !accepted.isEmpty();
            if (predicted && l.remember()) {
                tp++;
                if (l.types().contains(accepted.get(0).type())) {
                    typeOk++;
                } else {
                    misses.add(l.id() + " type " + accepted.get(0).type() + " want " + l.types());
                }
            } else if (predicted) {
                fp++;
                misses.add(l.id() + " false positive " + accepted.get(0).rule());
            } else if (l.remember()) {
                fn++;
                misses.add(l.id() + " missed " + l.types());
            }
        }
        Metrics m =
                new Metrics(
                        set.size(),
                        tp,
                        fp,
                        fn,
                        tp / (double) Math.max(1, tp + fp),
                        tp / (double) Math.max(1, tp + fn),
                        typeOk / (double) Math.max(1, tp),
                        storedOk / (double) Math.max(1, stored));
        System.out.println("extraction quality " + name + " " + m.json());
        misses.forEach(x -> System.out.println("  " + x));
        Files.createDirectories(Path.of("target"));
        Files.writeString(
                Path.of("target", "extraction-quality-" + name + ".json"), m.json() + "\n");
        return m;
    }

    private static void assertBaseline(
            Metrics m, double precision, double recall, double typeAccuracy) {
        assertThat(m.precision()).as(m.json()).isGreaterThanOrEqualTo(precision - TOLERANCE);
        assertThat(m.recall()).as(m.json()).isGreaterThanOrEqualTo(recall - TOLERANCE);
        assertThat(m.typeAccuracy()).as(m.json()).isGreaterThanOrEqualTo(typeAccuracy - TOLERANCE);
    }

    @Test
    void labelledSetMeetsItsBaseline() throws IOException {
        Metrics m = measure("labelled");
        assertThat(m.pairs()).isGreaterThanOrEqualTo(100);
        assertBaseline(m, 1.000, 0.945, 0.986);
    }

    @Test
    void heldOutSetMeetsItsBaseline() throws IOException {
        assertBaseline(measure("heldout"), 1.000, 1.000, 1.000);
    }

    @Test
    void secondHeldOutSetMeetsItsBaseline() throws IOException {
        assertBaseline(measure("heldout2"), 1.000, 0.933, 1.000);
    }

    @Test
    void thirdHeldOutSetMeetsItsBaseline() throws IOException {
        assertBaseline(measure("heldout3"), 0.750, 0.450, 0.889);
    }
}
