package dev.cairn.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A local server speaking OpenAI's {@code POST /v1/chat/completions}: the paid model is the one
 * part the tests fake. Each request is recorded and answered by the next scripted reply, which sees
 * the request (to echo what the model was given); a request past the script is a 500.
 */
public final class ChatCompletionsStub implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Deque<Function<JsonNode, ObjectNode>> script = new ArrayDeque<>();
    private final List<JsonNode> requests = new ArrayList<>();

    /** Starts the stub on a free port of 127.0.0.1. */
    public ChatCompletionsStub() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", this::answer);
        server.start();
    }

    /** The base URL an OpenAI client is given. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Adds the reply to the next request. */
    public synchronized ChatCompletionsStub then(Function<JsonNode, ObjectNode> reply) {
        script.add(reply);
        return this;
    }

    public synchronized List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    public synchronized int unanswered() {
        return script.size();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            Function<JsonNode, ObjectNode> reply;
            synchronized (this) {
                requests.add(request);
                reply = script.poll();
            }
            byte[] body =
                    reply == null
                            ? "{\"error\":{\"message\":\"no scripted reply\"}}"
                                    .getBytes(StandardCharsets.UTF_8)
                            : JSON.writeValueAsBytes(reply.apply(request));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply == null ? 500 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** An assistant message with text. */
    public static ObjectNode text(String content) {
        ObjectNode message =
                JSON.createObjectNode().put("role", "assistant").put("content", content);
        return completion(message, "stop");
    }

    /** An assistant message calling one tool with the given JSON arguments. */
    public static ObjectNode toolCall(String id, String tool, ObjectNode arguments) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        message.putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", id).put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", arguments.toString());
        return completion(message, "tool_calls");
    }

    private static ObjectNode completion(ObjectNode message, String finishReason) {
        ObjectNode completion = JSON.createObjectNode();
        completion.put("id", "chatcmpl-stub").put("object", "chat.completion");
        completion.put("created", 0).put("model", "stub-model");
        ObjectNode choice = completion.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", finishReason);
        choice.set("message", message);
        completion
                .putObject("usage")
                .put("prompt_tokens", 1)
                .put("completion_tokens", 1)
                .put("total_tokens", 2);
        return completion;
    }

    /** The roles of a request's messages, in order. */
    public static List<String> roles(JsonNode request) {
        List<String> roles = new ArrayList<>();
        request.path("messages").forEach(message -> roles.add(message.path("role").asText()));
        return roles;
    }

    /** The text of a request's message at {@code index} ("" when it has none). */
    public static String messageText(JsonNode request, int index) {
        return textOf(request.path("messages").path(index).path("content"));
    }

    /** The text of a request's last message of a role ("" when it has none). */
    public static String lastMessage(JsonNode request, String role) {
        String text = "";
        for (JsonNode message : request.path("messages")) {
            if (role.equals(message.path("role").asText())) {
                text = textOf(message.path("content"));
            }
        }
        return text;
    }

    // a message's content is a string, or an array of typed parts
    private static String textOf(JsonNode content) {
        if (!content.isArray()) {
            return content.asText("");
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
