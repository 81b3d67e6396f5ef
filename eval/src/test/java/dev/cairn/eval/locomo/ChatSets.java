package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the checks of the project's own chat sets ({@code src/test/resources/chats}, LoCoMo's
 * format) read of a set: its conversations, a turn's words, turns by id, the sessions a question's
 * evidence comes from, the questions that name a speaker by label. Stateless.
 */
final class ChatSets {

    private ChatSets() {}

    /** The conversations of {@code chats/<file>}. */
    static List<Locomo.Conversation> read(String file) throws URISyntaxException {
        return Locomo.read(Path.of(ChatSets.class.getResource("/chats/" + file).toURI()));
    }

    static int words(String text) {
        String s = text.strip();
        return s.isEmpty() ? 0 : s.split("\\s+").length;
    }

    static Map<String, Locomo.Turn> byId(Locomo.Conversation c) {
        Map<String, Locomo.Turn> byId = new HashMap<>();
        c.turns().forEach(t -> byId.put(t.diaId(), t));
        return byId;
    }

    /** {@code c}'s turns by session, sessions in order. */
    static Map<Integer, List<Locomo.Turn>> sessions(Locomo.Conversation c) {
        return c.turns().stream()
                .collect(
                        Collectors.groupingBy(
                                Locomo.Turn::session, TreeMap::new, Collectors.toList()));
    }

    /** Asserts that each turn's id is {@code D<session>:<n>}, n counting from 1 in its session. */
    static void assertNumberedInSessions(Locomo.Conversation c) {
        Map<Integer, Integer> next = new HashMap<>();
        for (Locomo.Turn t : c.turns()) {
            int n = next.merge(t.session(), 1, Integer::sum);
            assertThat(t.diaId()).isEqualTo("D" + t.session() + ":" + n);
        }
    }

    /** The sessions of the turns {@code q}'s evidence names. */
    static Set<Integer> evidenceSessions(Locomo.Question q, Map<String, Locomo.Turn> byId) {
        return q.evidence().stream()
                .map(byId::get)
                .filter(Objects::nonNull)
                .map(Locomo.Turn::session)
                .collect(Collectors.toSet());
    }

    /** How many of {@code c}'s questions name a speaker by label ("fi.mcn" rather than "Fi"). */
    static long questionsNamingALabel(Locomo.Conversation c) {
        return c.questions().stream()
                .filter(
                        q ->
                                q.question().contains(c.speakerA())
                                        || q.question().contains(c.speakerB()))
                .count();
    }
}
