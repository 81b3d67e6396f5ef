package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The project's own multi-session chats ({@code chats/chats.json}, written for issue 39 in LoCoMo's
 * format): what makes them a second kind of conversation is checked, so an edit that loses it fails
 * here rather than silently in the numbers of docs/memory.md.
 */
class OwnChatsTest {

    @Test
    void sixDatedConversationsWhoseEvidenceAllNamesTurns() throws Exception {
        List<Locomo.Conversation> all = ChatSets.read("chats.json");

        assertThat(all)
                .extracting(Locomo.Conversation::sampleId)
                .containsExactly("chat-a1", "chat-b1", "chat-c1", "chat-a2", "chat-b2", "chat-c2");
        int questions = 0;
        for (Locomo.Conversation c : all) {
            Set<String> ids = ChatSets.byId(c).keySet();
            assertThat(c.turns()).hasSizeGreaterThan(250);
            assertThat(c.turns())
                    .allSatisfy(
                            t -> assertThat(t.at()).isAfter(Instant.parse("2023-01-01T00:00:00Z")));
            for (Locomo.Question q : c.questions()) {
                assertThat(ids).as(c.sampleId() + ": " + q.question()).containsAll(q.evidence());
            }
            questions += c.questions().size();
        }
        assertThat(questions).isEqualTo(273);
    }

    @Test
    void peopleAreCalledByNamesTheirSpeakerLabelsDoNotCarry() throws Exception {
        for (Locomo.Conversation c : ChatSets.read("chats.json")) {
            long namedByLabel = ChatSets.questionsNamingALabel(c);
            // most questions name a person by a chat name ("Tommy" for tomasz_k), not the label
            assertThat(namedByLabel).as(c.sampleId()).isLessThan(c.questions().size() / 2);
            long multiHop = c.questions().stream().filter(q -> q.category() == 1).count();
            assertThat(multiHop).as(c.sampleId()).isGreaterThanOrEqualTo(15);
        }
    }
}
