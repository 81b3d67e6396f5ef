package dev.cairn.server;

/**
 * Calls to Cairn's HTTP API as the tests make them, whether through a real socket ({@link
 * ServerFixture}) or straight into the production routing ({@link RoutedCairn}).
 */
interface CairnCalls {

    /** Sends a request; {@code token} and {@code body} may be null. */
    ServerFixture.Response call(
            String method, String path, String token, String body, String contentType);

    default ServerFixture.Response call(String method, String path, String token, String body) {
        return call(method, path, token, body, "application/json");
    }
}
