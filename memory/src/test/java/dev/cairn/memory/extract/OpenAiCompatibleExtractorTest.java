package dev.cairn.memory.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Scope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real client against a local server speaking the chat-completions protocol. */
class OpenAiCompatibleExtractorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExtractionInput INPUT =
            new ExtractionInput(
                    "I prefer pnpm. Our CI runs on GitHub Actions.", "Noted.", Scope.of("t"));

    private HttpServer server;
    private final ConcurrentLinkedQueue<JsonNode> requests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> authorizations = new ConcurrentLinkedQueue<>();
    private volatile int status = 200;
    private volatile String answer = "";
    private volatile long delayMillis = 0;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.add(JSON.readTree(exchange.getRequestBody()));
            authorizations.add(
                    String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private OpenAiCompatibleExtractor extractor(String apiKey, Duration timeout) {
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return OpenAiCompatibleExtractor.create(
                new OpenAiCompatibleExtractor.Config(base, "local-model", apiKey, timeout));
    }

    private static String completion(String content) {
        var root = JSON.createObjectNode();
        root.put("id", "chatcmpl-1").put("object", "chat.completion");
        var choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", content);
        return root.toString();
    }

    @Test
    void sendsAChatCompletionRequestAndParsesJsonCandidates() {
        answer =
                completion(
                        "{\"candidates\": [{\"type\": \"preference\", \"content\": \"Prefers pnpm\","
                                + " \"confidence\": 0.9, \"reason\": \"stated\"},"
                                + " {\"type\": \"FACT\", \"content\": \"CI runs on GitHub Actions\","
                                + " \"confidence\": 1.7},"
                                + " {\"type\": \"OPINION\", \"content\": \"dropped\"}]}");
        try (OpenAiCompatibleExtractor e = extractor("test-key", Duration.ofSeconds(5))) {
            List<Candidate> out = e.extract(INPUT);
            assertThat(out)
                    .containsExactly(
                            new Candidate(
                                    MemoryType.PREFERENCE, "Prefers pnpm", 0.9, "llm: stated"),
                            new Candidate(
                                    MemoryType.FACT, "CI runs on GitHub Actions", 1.0, "llm"));
        }
        JsonNode request = requests.peek();
        assertThat(request.path("model").asText()).isEqualTo("local-model");
        assertThat(request.path("messages").path(0).path("role").asText()).isEqualTo("system");
        assertThat(request.path("messages").path(1).path("content").asText())
                .contains("I prefer pnpm");
        assertThat(authorizations).containsExactly("Bearer test-key");
    }

    @Test
    void acceptsFencedJsonAndSendsNoAuthorizationWithoutAKey() {
        answer = completion("```json\n{\"candidates\": []}\n```");
        try (OpenAiCompatibleExtractor e = extractor("", Duration.ofSeconds(5))) {
            assertThat(e.extract(INPUT)).isEmpty();
        }
        assertThat(authorizations).containsExactly("null");
    }

    @Test
    void nonSuccessStatusIsAnHttpStatusFailureWithoutTheBody() {
        status = 500;
        answer = "{\"error\": \"secret internal detail\"}";
        try (OpenAiCompatibleExtractor e = extractor("k", Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> e.extract(INPUT))
                    .isInstanceOfSatisfying(
                            ExtractorException.class,
                            x ->
                                    assertThat(x.reason())
                                            .isEqualTo(ExtractorException.Reason.HTTP_STATUS))
                    .hasMessageContaining("status 500")
                    .hasMessageNotContaining("secret internal detail");
        }
    }

    @Test
    void malformedJsonIsAMalformedResponseFailure() {
        answer = completion("Sure! Here are the memories: pnpm.");
        try (OpenAiCompatibleExtractor e = extractor("k", Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> e.extract(INPUT))
                    .isInstanceOfSatisfying(
                            ExtractorException.class,
                            x ->
                                    assertThat(x.reason())
                                            .isEqualTo(
                                                    ExtractorException.Reason.MALFORMED_RESPONSE));
        }
        answer = "not json at all";
        try (OpenAiCompatibleExtractor e = extractor("k", Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> e.extract(INPUT))
                    .isInstanceOf(ExtractorException.class)
                    .hasMessageContaining("body is not JSON");
        }
    }

    @Test
    void slowServerIsATimeoutFailure() {
        delayMillis = 1500;
        answer = completion("{\"candidates\": []}");
        try (OpenAiCompatibleExtractor e = extractor("k", Duration.ofMillis(200))) {
            assertThatThrownBy(() -> e.extract(INPUT))
                    .isInstanceOfSatisfying(
                            ExtractorException.class,
                            x ->
                                    assertThat(x.reason())
                                            .isEqualTo(ExtractorException.Reason.TIMEOUT));
        }
    }

    @Test
    void configNeverPrintsTheApiKeyAndResolvesTheEndpoint() {
        var config =
                new OpenAiCompatibleExtractor.Config(
                        URI.create("https://llm.example/v1/"),
                        "m",
                        "sk-very-secret",
                        Duration.ofSeconds(1));
        assertThat(config.toString()).doesNotContain("sk-very-secret");
        assertThat(config.endpoint())
                .isEqualTo(URI.create("https://llm.example/v1/chat/completions"));
        assertThatThrownBy(
                        () ->
                                new OpenAiCompatibleExtractor.Config(
                                        URI.create("ftp://x"), "m", "", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ftp");
    }
}
