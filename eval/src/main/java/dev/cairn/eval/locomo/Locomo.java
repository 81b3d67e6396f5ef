package dev.cairn.eval.locomo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The LoCoMo file ({@code locomo10.json}): conversations with dated sessions of turns, and
 * questions with the dialogue ids of their evidence. Stateless, thread-safe.
 */
public final class Locomo {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("h:mm a 'on' d MMMM, yyyy", Locale.ENGLISH);

    private Locomo() {}

    /** One dialogue turn. {@code text} includes the shared image's caption when there is one. */
    public record Turn(String diaId, String speaker, String text, int session, Instant at) {
        public Turn {
            Objects.requireNonNull(diaId, "diaId");
            Objects.requireNonNull(speaker, "speaker");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(at, "at");
        }
    }

    /** A question and the dia_ids of its evidence (as listed; some may not name a turn). */
    public record Question(String question, List<String> evidence, int category) {
        public Question {
            Objects.requireNonNull(question, "question");
            evidence = List.copyOf(evidence);
        }
    }

    public record Conversation(
            String sampleId,
            String speakerA,
            String speakerB,
            List<Turn> turns,
            List<Question> questions) {
        public Conversation {
            turns = List.copyOf(turns);
            questions = List.copyOf(questions);
        }
    }

    /** Reads the file. */
    public static List<Conversation> read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException(
                    file + " is not a LoCoMo file: expected a JSON list");
        }
        List<Conversation> out = new ArrayList<>();
        for (JsonNode sample : root) {
            JsonNode conv = sample.path("conversation");
            if (!conv.isObject()) {
                throw new IllegalArgumentException(
                        file + " is not a LoCoMo file: a sample has no 'conversation'");
            }
            List<Turn> turns = new ArrayList<>();
            var names = conv.fieldNames();
            List<Integer> sessions = new ArrayList<>();
            while (names.hasNext()) {
                Matcher m = SESSION.matcher(names.next());
                if (m.matches()) {
                    sessions.add(Integer.parseInt(m.group(1)));
                }
            }
            sessions.sort(null);
            for (int s : sessions) {
                Instant at = parseDate(conv.path("session_" + s + "_date_time").asText(""));
                for (JsonNode t : conv.path("session_" + s)) {
                    String text = t.path("text").asText("");
                    String caption = t.path("blip_caption").asText("");
                    if (!caption.isBlank()) {
                        text = text + " [shares an image: " + caption + "]";
                    }
                    if (text.isBlank()) {
                        continue;
                    }
                    turns.add(
                            new Turn(
                                    t.path("dia_id").asText(),
                                    t.path("speaker").asText(""),
                                    text,
                                    s,
                                    at));
                }
            }
            List<Question> questions = new ArrayList<>();
            for (JsonNode q : sample.path("qa")) {
                Set<String> evidence = new LinkedHashSet<>();
                for (JsonNode e : q.path("evidence")) {
                    for (String id : e.asText("").split("[;\\s]+")) {
                        if (!id.isBlank()) {
                            evidence.add(id.strip());
                        }
                    }
                }
                questions.add(
                        new Question(
                                q.path("question").asText(""),
                                List.copyOf(evidence),
                                q.path("category").asInt(0)));
            }
            out.add(
                    new Conversation(
                            sample.path("sample_id").asText("sample-" + out.size()),
                            conv.path("speaker_a").asText(""),
                            conv.path("speaker_b").asText(""),
                            turns,
                            questions));
        }
        return out;
    }

    /** "1:56 pm on 8 May, 2023" as UTC; the epoch when the text does not parse. */
    static Instant parseDate(String text) {
        try {
            String normal = text.strip().replace("am", "AM").replace("pm", "PM");
            return LocalDateTime.parse(normal, DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return Instant.parse("2023-01-01T00:00:00Z");
        }
    }
}
