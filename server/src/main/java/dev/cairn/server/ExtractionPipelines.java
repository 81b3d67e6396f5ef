package dev.cairn.server;

import dev.cairn.memory.extract.ExtractionPipeline;
import dev.cairn.memory.extract.ExtractorException;
import dev.cairn.memory.extract.MemoryExtractor;
import dev.cairn.memory.extract.OpenAiCompatibleExtractor;
import dev.cairn.memory.extract.QualityGate;
import dev.cairn.safety.SecretRedactor;
import dev.cairn.safety.WriteSafety;
import io.helidon.config.Config;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Makes the extraction pipeline of {@code POST extract} from the {@code cairn.extract} config node:
 * {@code mode} ({@code store} or {@code propose}: where accepted candidates go by default), {@code
 * namespace-modes} (per-namespace overrides), {@code min-confidence} (0.6), {@code
 * store-confidence} (0.7), and the optional LLM extractor {@code llm.url}, {@code llm.model},
 * {@code llm.api-key} (also {@code CAIRN_EXTRACT_API_KEY}), {@code llm.timeout-seconds} (20). With
 * an LLM configured, a failing call falls back to the rule-based extractor.
 */
final class ExtractionPipelines {

    private static final System.Logger LOG = System.getLogger(ExtractionPipelines.class.getName());

    private ExtractionPipelines() {}

    /** The pipeline the {@code cairn} config node describes. */
    static ExtractionPipeline fromConfig(Config cairn) {
        Config e = cairn.get("extract");
        QualityGate.Config d = QualityGate.Config.defaults();
        QualityGate.Config gate =
                new QualityGate.Config(
                        e.get("min-confidence").asDouble().orElse(d.minConfidence()),
                        e.get("store-confidence").asDouble().orElse(d.storeConfidence()),
                        d.minLength(),
                        d.maxLength(),
                        mode(e.get("mode").asString().orElse("store")),
                        java.util.Map.of());
        for (Config ns : e.get("namespace-modes").asNodeList().orElse(java.util.List.of())) {
            gate = gate.withNamespaceMode(ns.name(), mode(ns.asString().orElse("store")));
        }
        return ExtractionPipeline.create(
                extractor(e.get("llm")),
                QualityGate.create(gate, WriteSafety.standard()),
                SecretRedactor.standard());
    }

    private static QualityGate.AcceptMode mode(String value) {
        try {
            return QualityGate.AcceptMode.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                    "illegal cairn.extract mode: '" + value + "', must be store or propose");
        }
    }

    private static MemoryExtractor extractor(Config llm) {
        String url = llm.get("url").asString().orElse("").strip();
        if (url.isEmpty()) {
            return MemoryExtractor.ruleBased();
        }
        String key =
                llm.get("api-key")
                        .asString()
                        .orElseGet(
                                () -> {
                                    String env = System.getenv("CAIRN_EXTRACT_API_KEY");
                                    return env == null ? "" : env;
                                });
        OpenAiCompatibleExtractor remote =
                OpenAiCompatibleExtractor.create(
                        new OpenAiCompatibleExtractor.Config(
                                URI.create(url),
                                llm.get("model").asString().orElse("gpt-4o-mini"),
                                key,
                                Duration.ofSeconds(
                                        llm.get("timeout-seconds").asLong().orElse(20L))));
        MemoryExtractor rules = MemoryExtractor.ruleBased();
        return input -> {
            try {
                return remote.extract(input);
            } catch (ExtractorException ex) {
                LOG.log(
                        Level.WARNING,
                        "LLM extractor failed ({0}); using the rule-based extractor",
                        ex.getClass().getSimpleName());
                return rules.extract(input);
            }
        };
    }
}
