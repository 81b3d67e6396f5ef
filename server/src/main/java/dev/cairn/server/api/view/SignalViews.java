package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.retrieval.GraphContext;
import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.fusion.Signal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The parts retrieve answers and stored traces share: per-signal values and outcomes. */
public final class SignalViews {

    private SignalViews() {}

    /** How one signal did: {@code detail} only when it says something. */
    public record Outcome(
            String status,
            double ms,
            int returned,
            @JsonInclude(JsonInclude.Include.NON_NULL) String detail) {

        static Outcome of(SignalOutcome o) {
            return new Outcome(
                    o.status().name().toLowerCase(Locale.ROOT),
                    o.millis(),
                    o.returned(),
                    o.detail().isEmpty() ? null : o.detail());
        }
    }

    /** A traversed relation of the entity graph. */
    public record Relation(String from, String to, String type, double weight) {

        static Relation of(GraphContext.TraversedRelation r) {
            return new Relation(r.from(), r.to(), r.type(), r.weight());
        }

        static List<Relation> all(List<GraphContext.TraversedRelation> relations) {
            return relations.stream().map(Relation::of).toList();
        }
    }

    /** Outcomes keyed by signal name ({@code lexical}, {@code dense}, {@code graph}). */
    static Map<String, Outcome> outcomes(List<SignalOutcome> outcomes) {
        Map<String, Outcome> view = new LinkedHashMap<>();
        for (SignalOutcome o : outcomes) {
            view.put(o.signal().name().toLowerCase(Locale.ROOT), Outcome.of(o));
        }
        return view;
    }

    /** Values keyed by signal name, in signal order, only the signals that have one. */
    static Map<String, Number> bySignal(Map<Signal, ? extends Number> values) {
        Map<String, Number> out = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            if (values.containsKey(s)) {
                out.put(s.name().toLowerCase(Locale.ROOT), values.get(s));
            }
        }
        return out;
    }
}
