package dev.cairn.server.api.view;

/**
 * {@code GET /} for an API client: where the API, the console, the OpenAPI document and the health
 * check are. Paths only: nothing about this server or its data, since it needs no token.
 */
public record RootPointer(String name, String api, String console, String openapi, String health) {

    /** Cairn's paths. */
    public static RootPointer of(String console) {
        return new RootPointer("cairn", "/v1", console, "/openapi", "/health");
    }
}
