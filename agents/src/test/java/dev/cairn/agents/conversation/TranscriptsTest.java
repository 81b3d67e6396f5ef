package dev.cairn.agents.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TranscriptsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsRoleAndTextOfOpenAiAndA2aMessages() throws Exception {
        var openAi = JSON.readTree("{\"role\":\"user\",\"content\":\"hello\"}");
        var parts =
                JSON.readTree(
                        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image_url\"}]}");
        var a2a =
                JSON.readTree(
                        "{\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"b\"}]}");
        var toolCall = JSON.readTree("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]}");

        assertThat(MessageText.role(openAi)).isEqualTo("user");
        assertThat(MessageText.content(openAi)).isEqualTo("hello");
        assertThat(MessageText.content(parts)).isEqualTo("a");
        assertThat(MessageText.role(a2a)).isEqualTo("agent");
        assertThat(MessageText.content(a2a)).isEqualTo("b");
        assertThat(MessageText.content(toolCall)).isEmpty();
        assertThat(MessageText.content(JSON.readTree("\"plain\""))).isEqualTo("plain");
        assertThat(MessageText.role(JSON.readTree("42"))).isEmpty();
    }

    @Test
    void snippetsAreShortAndStartNearTheFirstQueryTerm() {
        String text = "filler ".repeat(100) + "the Kafka consumer lag grows " + "tail ".repeat(100);
        String snippet = Transcripts.snippet(text, "kafka lag");
        assertThat(snippet.length()).isLessThanOrEqualTo(Transcripts.SNIPPET_LENGTH);
        assertThat(snippet).contains("Kafka consumer lag").startsWith("…").endsWith("…");
        assertThat(Transcripts.snippet("short  text\nhere", "x")).isEqualTo("short text here");
    }
}
