package dev.cairn.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Calls to Cairn's HTTP API as the tests make them, whether through a real socket ({@link
 * ServerFixture}) or straight into the production routing ({@link RoutedCairn}).
 */
interface CairnCalls {

    /** The admin token's secret every test server starts with. */
    String ADMIN = "test-admin-secret-of-32-characters";

    /** An answer: status, content type as sent, body. */
    record Response(int status, String contentType, String body) {
        JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }
    }

    /** Sends a request; {@code token} and {@code body} may be null. */
    Response call(String method, String path, String token, String body, String contentType);

    default Response call(String method, String path, String token, String body) {
        return call(method, path, token, body, "application/json");
    }
}
