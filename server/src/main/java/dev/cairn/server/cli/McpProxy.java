package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Forwards newline-delimited JSON-RPC from stdin to a server's streamable HTTP MCP endpoint and
 * writes its answers to stdout, one message a line. The server does the protocol; this only maps
 * the framing (POST per message, JSON or server-sent-event answers, the session id header), so the
 * tools behave exactly as over HTTP.
 */
final class McpProxy {

    private static final String SESSION = "Mcp-Session-Id";

    private final URI endpoint;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String session;
    private String protocolVersion;

    McpProxy(URI endpoint, String token) {
        this.endpoint = endpoint;
        this.token = token;
    }

    /** Forwards until stdin closes, then ends the server's session. */
    void run(InputStream in, PrintStream out) throws IOException, InterruptedException {
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = lines.readLine()) != null) {
            if (!line.isBlank()) {
                forward(line, out);
            }
        }
        if (session != null) {
            http.send(request().DELETE().build(), HttpResponse.BodyHandlers.discarding());
        }
    }

    private HttpRequest.Builder request() {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(endpoint)
                        .header("Authorization", "Bearer " + token)
                        .header("Accept", "application/json, text/event-stream");
        if (session != null) {
            b.header(SESSION, session);
        }
        if (protocolVersion != null) {
            b.header("MCP-Protocol-Version", protocolVersion);
        }
        return b;
    }

    private void forward(String message, PrintStream out) throws InterruptedException {
        JsonNode id = null;
        try {
            id = Json.MAPPER.readTree(message).get("id");
            HttpResponse<Stream<String>> response =
                    http.send(
                            request()
                                    .header("Content-Type", "application/json")
                                    .timeout(Duration.ofMinutes(5))
                                    .POST(HttpRequest.BodyPublishers.ofString(message))
                                    .build(),
                            HttpResponse.BodyHandlers.ofLines());
            response.headers().firstValue(SESSION).ifPresent(s -> session = s);
            String type = response.headers().firstValue("Content-Type").orElse("");
            if (response.statusCode() == 202) {
                response.body().close();
                return;
            }
            if (type.startsWith("text/event-stream")) {
                // Each event's data lines form one message; an empty line ends the event.
                StringBuilder data = new StringBuilder();
                response.body()
                        .forEach(
                                l -> {
                                    if (l.startsWith("data:")) {
                                        data.append(l.substring(5).strip());
                                    } else if (l.isEmpty() && !data.isEmpty()) {
                                        emit(data.toString(), out);
                                        data.setLength(0);
                                    }
                                });
                if (!data.isEmpty()) {
                    emit(data.toString(), out);
                }
                return;
            }
            String body = String.join("\n", response.body().toList());
            if (type.startsWith("application/json") && !body.isBlank()) {
                emit(body, out);
            } else if (id != null) {
                fail(id, "server answered " + response.statusCode() + ": " + body, out);
            }
        } catch (IOException e) {
            if (id != null) {
                fail(id, "cannot reach " + endpoint + ": " + e.getMessage(), out);
            }
        }
    }

    private void emit(String message, PrintStream out) {
        try {
            JsonNode node = Json.MAPPER.readTree(message);
            // Later requests must name the version the server agreed to at initialize.
            JsonNode version = node.path("result").path("protocolVersion");
            if (version.isTextual()) {
                protocolVersion = version.asText();
            }
            out.println(Json.MAPPER.writeValueAsString(node));
        } catch (IOException e) {
            System.err.println("cairn mcp: dropped a non-JSON answer: " + message);
        }
    }

    /** A JSON-RPC error answer for a request the server could not answer itself. */
    private static void fail(JsonNode id, String message, PrintStream out) {
        ObjectNode error = Json.MAPPER.createObjectNode();
        error.put("jsonrpc", "2.0");
        error.set("id", id);
        error.putObject("error").put("code", -32603).put("message", message);
        out.println(error.toString());
    }
}
