package dev.cairn.client;

import com.fasterxml.jackson.databind.JavaType;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.NamespaceSettingsBody;
import dev.cairn.api.view.HealthAnswer;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.api.view.NamespaceView;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * A typed client of Cairn's HTTP API ({@code /v1}, docs/api.md): the namespaces here, everything
 * inside one namespace on {@link #namespace(String)}. The request and answer types are the server's
 * own wire records ({@code dev.cairn.api.body}, {@code dev.cairn.api.view}); a null field of a
 * request is left out, so the server applies its default.
 *
 * <p>Every error answer is a {@link CairnException} (status, title, detail of the problem+json); an
 * answer that never came is an {@link java.io.UncheckedIOException}. Idempotent calls are retried
 * by the {@link RetryPolicy} (connection failures and timeouts, 503, 429 with {@code Retry-After}):
 * every GET, PUT and DELETE, {@link NamespaceClient#apply} (the API declares it idempotent) and
 * {@link NamespaceClient#ingest(dev.cairn.api.body.DocumentBody, boolean)} of a document with an id
 * and {@code skipUnchanged} (sent again, it is answered as unchanged). Other POSTs and the PATCH
 * are sent once: a second create is a 409, a second memory may be a second memory.
 *
 * <p>Thread-safe; one client serves a whole application. Close it to release the HTTP client's
 * connections.
 */
public final class CairnClient implements AutoCloseable {

    /** How long to wait for a connection. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * How long to wait for an answer: above the server's slowest bounded call (a recall's deadline
     * is 3 s by default, an ingest embeds a whole document).
     */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http;
    private final Transport transport;

    private CairnClient(Builder b) {
        this.http = HttpClient.newBuilder().connectTimeout(b.connectTimeout).build();
        this.transport = new Transport(http, b.baseUri, b.token, b.requestTimeout, b.retries);
    }

    /** A client of the server at {@code baseUri} (e.g. {@code http://localhost:8080}). */
    public static Builder builder(URI baseUri) {
        return new Builder(baseUri);
    }

    /** A client of the server at {@code baseUri} with a bearer token and every default. */
    public static CairnClient of(URI baseUri, String token) {
        return builder(baseUri).token(token).build();
    }

    /**
     * {@code GET /health}: whether the server is up with its store, how far each derived index is
     * behind, and the model it embeds with. A server that is DOWN answers too (status 503, read as
     * the answer); asked once, never retried, as a probe wants the state of now.
     */
    public HealthAnswer health() {
        return transport.call("GET", "/health", null, false, type(HealthAnswer.class), 503);
    }

    /** The calls inside one namespace; sends nothing. */
    public NamespaceClient namespace(String name) {
        return new NamespaceClient(transport, name);
    }

    /** The conversation calls of a namespace's ARK mount ({@code /ark/{ns}}); sends nothing. */
    public ConversationClient conversations(String namespace) {
        return new ConversationClient(transport, namespace);
    }

    /** {@code POST /v1/namespaces} (admin); 409 when it exists. */
    public NamespaceView createNamespace(NamespaceBody body) {
        return transport.call("POST", "/v1/namespaces", body, false, type(NamespaceView.class));
    }

    /** {@code GET /v1/namespaces}: the namespaces the token can read. */
    public ListAnswer<NamespaceView> namespaces(Page page) {
        Query query = new Query();
        page.addTo(query);
        return transport.call(
                "GET", "/v1/namespaces" + query, null, true, listOf(NamespaceView.class));
    }

    /** {@code GET /v1/namespaces/{ns}}; 404 when there is none. */
    public NamespaceView getNamespace(String name) {
        return transport.call("GET", nsPath(name), null, true, type(NamespaceView.class));
    }

    /** {@code PATCH /v1/namespaces/{ns}} (admin): the namespace with the new settings. */
    public NamespaceView updateNamespace(String name, NamespaceSettingsBody settings) {
        return transport.call("PATCH", nsPath(name), settings, false, type(NamespaceView.class));
    }

    /** {@code DELETE /v1/namespaces/{ns}} (admin): the namespace and everything in it. */
    public void deleteNamespace(String name) {
        transport.call("DELETE", nsPath(name), null, true, null);
    }

    @Override
    public void close() {
        http.close();
    }

    static String nsPath(String name) {
        return "/v1/namespaces/" + Query.encode(name);
    }

    static JavaType type(Class<?> type) {
        return Transport.MAPPER.constructType(type);
    }

    static JavaType listOf(Class<?> item) {
        return Transport.MAPPER.getTypeFactory().constructParametricType(ListAnswer.class, item);
    }

    /** Settings of a client; every one has a default. Not thread-safe. */
    public static final class Builder {
        private final String baseUri;
        private String token = "";
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private RetryPolicy retries = RetryPolicy.DEFAULT;

        private Builder(URI baseUri) {
            Objects.requireNonNull(baseUri, "baseUri");
            String scheme = String.valueOf(baseUri.getScheme());
            if (!scheme.equals("http") && !scheme.equals("https") || baseUri.getHost() == null) {
                throw new IllegalArgumentException(
                        "illegal baseUri: " + baseUri + ", must be http(s)://host[:port]");
            }
            // A path prefix (a server behind a proxy at /cairn) is kept; calls add /v1/... to it.
            this.baseUri = baseUri.toString().replaceAll("/+$", "");
        }

        /** The bearer token sent on every call (empty: none, for a server without auth). */
        public Builder token(String token) {
            this.token = Objects.requireNonNull(token, "token");
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /** The longest wait for one attempt's answer. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        public Builder retries(RetryPolicy policy) {
            this.retries = Objects.requireNonNull(policy, "policy");
            return this;
        }

        public CairnClient build() {
            return new CairnClient(this);
        }

        private static Duration positive(Duration d, String name) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("illegal " + name + ": " + d + ", must be > 0");
            }
            return d;
        }
    }
}
