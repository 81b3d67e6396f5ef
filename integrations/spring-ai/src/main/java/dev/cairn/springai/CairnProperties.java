package dev.cairn.springai;

import dev.cairn.client.CairnClient;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code cairn.*} properties of a Spring Boot application using Cairn.
 *
 * @param baseUrl where the server answers ({@code cairn.base-url}, e.g. {@code
 *     http://localhost:8080}); the auto-configuration is off without it
 * @param token the bearer token sent on every call ({@code cairn.token}; empty: none)
 * @param namespace the namespace the vector store and the chat memory use ({@code
 *     cairn.namespace}); required for those beans
 * @param connectTimeout {@code cairn.connect-timeout}, default {@link
 *     CairnClient#DEFAULT_CONNECT_TIMEOUT}
 * @param requestTimeout {@code cairn.request-timeout}, the longest wait for one answer, default
 *     {@link CairnClient#DEFAULT_REQUEST_TIMEOUT}
 */
@ConfigurationProperties(CairnProperties.PREFIX)
public record CairnProperties(
        URI baseUrl,
        String token,
        String namespace,
        Duration connectTimeout,
        Duration requestTimeout) {

    /** The prefix of the properties. */
    public static final String PREFIX = "cairn";

    public CairnProperties {
        token = Objects.requireNonNullElse(token, "");
        namespace = Objects.requireNonNullElse(namespace, "");
        connectTimeout =
                Objects.requireNonNullElse(connectTimeout, CairnClient.DEFAULT_CONNECT_TIMEOUT);
        requestTimeout =
                Objects.requireNonNullElse(requestTimeout, CairnClient.DEFAULT_REQUEST_TIMEOUT);
    }

    /** The namespace; refuses a blank one with the property's name. */
    String requireNamespace() {
        if (namespace.isBlank()) {
            throw new IllegalStateException(
                    "cairn.namespace is not set: name the Cairn namespace the vector store and the"
                            + " chat memory use");
        }
        return namespace;
    }
}
