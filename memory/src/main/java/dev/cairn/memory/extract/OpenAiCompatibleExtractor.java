package dev.cairn.memory.extract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.memory.MemoryType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Extracts candidates with a model behind an OpenAI-compatible {@code POST /v1/chat/completions}
 * endpoint (OpenAI, vLLM, llama.cpp server, Ollama, LiteLLM...). It asks for a JSON object {@code
 * {"candidates":[{"type","content","confidence","reason"}]}} and keeps the well-formed entries with
 * a known {@link MemoryType}. Failures (non-2xx, malformed JSON, timeout, IO) throw {@link
 * ExtractorException} naming the reason. Owns its {@link HttpClient}; close it when done.
 * Thread-safe.
 */
public final class OpenAiCompatibleExtractor implements MemoryExtractor, AutoCloseable {

    /** Default request timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    /** Most candidates kept from one answer. */
    public static final int MAX_CANDIDATES = 20;

    private static final System.Logger LOG =
            System.getLogger(OpenAiCompatibleExtractor.class.getName());

    static final String SYSTEM_PROMPT =
            "You extract long-term memories for an AI agent from one exchange between a user and"
                    + " an assistant. Keep only what will still matter in later sessions:"
                    + " preferences, decisions, facts about named systems, people or projects,"
                    + " problems with their causes and fixes, dated events, procedures, open tasks"
                    + " and relationships. Skip small talk, questions, greetings and transient"
                    + " status. Never include passwords, tokens, keys or other secrets. Answer"
                    + " only with a JSON object {\"candidates\": [{\"type\": one of FACT, EVENT,"
                    + " PREFERENCE, DECISION, PROBLEM, COMMIT, RELATIONSHIP, TASK, PROCEDURE,"
                    + " \"content\": one self-contained sentence, \"confidence\": 0..1, \"reason\":"
                    + " short}]}; use an empty list when nothing is worth keeping.";

    /**
     * Endpoint configuration. {@code baseUri} is the server root or its {@code /v1}; {@code apiKey}
     * "" sends no Authorization header; timeout > 0.
     */
    public record Config(URI baseUri, String model, String apiKey, Duration timeout) {
        public Config {
            Objects.requireNonNull(baseUri, "baseUri");
            String scheme = baseUri.getScheme();
            if (scheme == null
                    || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
                throw new IllegalArgumentException(
                        "illegal baseUri scheme: " + scheme + ", must be http or https");
            }
            model = Objects.requireNonNull(model, "model").strip();
            if (model.isEmpty()) {
                throw new IllegalArgumentException("illegal model: '', must be non-blank");
            }
            apiKey = Objects.requireNonNull(apiKey, "apiKey").strip();
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("illegal timeout: " + timeout + ", must be > 0");
            }
        }

        /** The chat completions endpoint. */
        public URI endpoint() {
            String base = baseUri.toString().replaceAll("/+$", "");
            return URI.create(
                    base.endsWith("/v1")
                            ? base + "/chat/completions"
                            : base + "/v1/chat/completions");
        }

        @Override
        public String toString() {
            return "Config[baseUri="
                    + baseUri
                    + ", model="
                    + model
                    + ", apiKey="
                    + (apiKey.isEmpty() ? "" : "***")
                    + ", timeout="
                    + timeout
                    + "]";
        }
    }

    private final Config config;
    private final HttpClient client;
    private final ObjectMapper json = new ObjectMapper();

    private OpenAiCompatibleExtractor(Config config) {
        this.config = Objects.requireNonNull(config, "config");
        this.client =
                HttpClient.newBuilder()
                        .connectTimeout(config.timeout())
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
    }

    public static OpenAiCompatibleExtractor create(Config config) {
        return new OpenAiCompatibleExtractor(config);
    }

    @Override
    public List<Candidate> extract(ExtractionInput input) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(config.endpoint())
                        .timeout(config.timeout())
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(requestBody(input)));
        if (!config.apiKey().isEmpty()) {
            request.header("Authorization", "Bearer " + config.apiKey());
        }
        HttpResponse<String> response;
        try {
            response =
                    client.send(
                            request.build(),
                            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw fail(
                    ExtractorException.Reason.TIMEOUT, "no answer within " + config.timeout(), e);
        } catch (IOException e) {
            throw fail(ExtractorException.Reason.IO, e.getClass().getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail(ExtractorException.Reason.INTERRUPTED, "interrupted", e);
        }
        if (response.statusCode() / 100 != 2) {
            throw fail(
                    ExtractorException.Reason.HTTP_STATUS, "status " + response.statusCode(), null);
        }
        return parse(response.body());
    }

    String requestBody(ExtractionInput input) {
        ObjectNode body = json.createObjectNode();
        body.put("model", config.model());
        body.put("temperature", 0);
        body.putObject("response_format").put("type", "json_object");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", SYSTEM_PROMPT);
        messages.addObject()
                .put("role", "user")
                .put(
                        "content",
                        "User query:\n"
                                + input.query()
                                + "\n\nAssistant response:\n"
                                + input.response());
        return body.toString();
    }

    List<Candidate> parse(String body) {
        JsonNode content;
        try {
            JsonNode root = json.readTree(body);
            content = root.path("choices").path(0).path("message").path("content");
        } catch (JsonProcessingException e) {
            throw fail(ExtractorException.Reason.MALFORMED_RESPONSE, "body is not JSON", null);
        }
        if (!content.isTextual()) {
            throw fail(
                    ExtractorException.Reason.MALFORMED_RESPONSE,
                    "no choices[0].message.content",
                    null);
        }
        JsonNode answer;
        try {
            answer = json.readTree(stripFences(content.asText()));
        } catch (JsonProcessingException e) {
            throw fail(
                    ExtractorException.Reason.MALFORMED_RESPONSE,
                    "message content is not JSON",
                    null);
        }
        JsonNode list = answer.isArray() ? answer : answer.path("candidates");
        if (!list.isArray()) {
            throw fail(ExtractorException.Reason.MALFORMED_RESPONSE, "no candidates array", null);
        }
        List<Candidate> out = new ArrayList<>();
        int skipped = 0;
        for (JsonNode n : list) {
            if (out.size() >= MAX_CANDIDATES) {
                break;
            }
            Optional<MemoryType> type = typeOf(n.path("type").asText(""));
            String text = n.path("content").asText("").strip();
            if (type.isEmpty() || text.isEmpty()) {
                skipped++;
                continue;
            }
            double confidence =
                    n.path("confidence").isNumber() ? n.path("confidence").asDouble() : 0.5;
            confidence = Double.isFinite(confidence) ? Math.max(0, Math.min(1, confidence)) : 0.5;
            String reason = n.path("reason").asText("").strip();
            out.add(
                    new Candidate(
                            type.get(),
                            text,
                            confidence,
                            reason.isEmpty() ? "llm" : "llm: " + reason));
        }
        if (skipped > 0) {
            LOG.log(System.Logger.Level.DEBUG, "skipped {0} malformed candidates", skipped);
        }
        return List.copyOf(out);
    }

    private static Optional<MemoryType> typeOf(String name) {
        try {
            return Optional.of(MemoryType.parse(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String stripFences(String s) {
        String t = s.strip();
        if (t.startsWith("```")) {
            int first = t.indexOf('\n');
            int last = t.lastIndexOf("```");
            if (first > 0 && last > first) {
                return t.substring(first + 1, last);
            }
        }
        return t;
    }

    private ExtractorException fail(
            ExtractorException.Reason reason, String detail, Throwable cause) {
        String message =
                "extraction via "
                        + config.endpoint().getHost()
                        + " failed: "
                        + reason.name().toLowerCase(Locale.ROOT)
                        + ", "
                        + detail;
        LOG.log(System.Logger.Level.WARNING, message);
        return new ExtractorException(reason, message, cause);
    }

    @Override
    public void close() {
        client.close();
    }
}
