package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code retrieve} answer as a table: the trace id to hand to {@code judge} or {@code GET
 * traces/{id}}, one row per hit with its rank under each signal and its whole chunk id (so it can
 * be copied), a line of its text under it, and a sentence on which signals put the top hit first.
 * {@code wide} prints each hit's whole text and title instead of shortening them. Stateless.
 */
final class RetrieveTable {

    /** Characters of a hit's text shown under its row unless wide. */
    static final int SNIPPET_CHARS = 100;

    /** The signals in the order of their columns, as the API names them. */
    static final List<String> SIGNALS = List.of("lexical", "dense", "graph");

    private RetrieveTable() {}

    static List<String> lines(JsonNode answer, boolean wide) {
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "trace %s, plan %s, grounding %.2f, %.0f ms%s",
                        answer.path("traceId").asText(),
                        answer.path("plan").asText(),
                        answer.path("grounding").asDouble(),
                        answer.at("/timings/totalMs").asDouble(),
                        answer.path("partial").asBoolean() ? " (partial)" : ""));
        JsonNode hits = answer.path("hits");
        if (hits.isEmpty()) {
            lines.add("no hits");
            return lines;
        }
        lines.add(whyFirst(hits.get(0)));
        int idWidth = "chunk".length();
        for (JsonNode hit : hits) {
            idWidth = Math.max(idWidth, hit.path("chunkId").asText().length());
        }
        String row = "%-3s %-7s %-5s %-5s %-5s %-" + idWidth + "s  %s";
        lines.add(
                String.format(
                        Locale.ROOT,
                        row,
                        "#",
                        "score",
                        "lex",
                        "dense",
                        "graph",
                        "chunk",
                        "section"));
        int i = 1;
        for (JsonNode hit : hits) {
            // the heading path starts with the document title ("Title > Section")
            String heading = hit.path("heading").asText();
            String title = heading.isBlank() ? hit.path("title").asText() : heading;
            lines.add(
                    String.format(
                            Locale.ROOT,
                            row,
                            i++,
                            String.format(Locale.ROOT, "%.4f", hit.path("score").asDouble()),
                            rank(hit, "lexical"),
                            rank(hit, "dense"),
                            rank(hit, "graph"),
                            hit.path("chunkId").asText(),
                            wide ? title : keepEnd(title, 60)));
            String text = hit.path("text").asText().replaceAll("\\s+", " ").strip();
            lines.add("    " + (wide ? text : abbreviate(text, SNIPPET_CHARS)));
        }
        return lines;
    }

    /**
     * Which signals ranked the top hit and where: fusion adds one share per signal that found a
     * hit, more for a better rank, so the signals that ranked it highest put it first.
     */
    static String whyFirst(JsonNode top) {
        List<String> found = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        int best = Integer.MAX_VALUE;
        for (String signal : SIGNALS) {
            JsonNode r = top.path("ranks").path(signal);
            if (r.isMissingNode() || r.isNull()) {
                missed.add(signal);
            } else {
                best = Math.min(best, r.asInt());
            }
        }
        List<String> leaders = new ArrayList<>();
        for (String signal : SIGNALS) {
            JsonNode r = top.path("ranks").path(signal);
            if (!r.isMissingNode() && !r.isNull()) {
                found.add(signal + " #" + r.asInt());
                if (r.asInt() == best) {
                    leaders.add(signal);
                }
            }
        }
        if (found.isEmpty()) {
            return "top hit " + top.path("chunkId").asText() + ": no signal ranks recorded";
        }
        return "top hit "
                + top.path("chunkId").asText()
                + ": put first by "
                + String.join(" and ", leaders)
                + " (ranked "
                + String.join(", ", found)
                + (missed.isEmpty() ? "" : "; not found by " + String.join(", ", missed))
                + ")";
    }

    private static String rank(JsonNode hit, String signal) {
        JsonNode r = hit.path("ranks").path(signal);
        return r.isMissingNode() || r.isNull() ? "-" : r.asText();
    }

    /** The end of a heading path says most: "…API certificate > Steps". */
    private static String keepEnd(String s, int max) {
        return s.length() <= max ? s : "…" + s.substring(s.length() - max + 1);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
