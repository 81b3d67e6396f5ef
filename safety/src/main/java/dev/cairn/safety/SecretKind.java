package dev.cairn.safety;

/** Kinds of secret {@link SecretRedactor} detects; {@link #label()} appears in the marker. */
public enum SecretKind {
    PRIVATE_KEY("private_key"),
    URL_CREDENTIALS("url_credentials"),
    JWT("jwt"),
    GITHUB_TOKEN("github_token"),
    OPENAI_KEY("openai_key"),
    SLACK_TOKEN("slack_token"),
    SLACK_WEBHOOK("slack_webhook"),
    STRIPE_KEY("stripe_key"),
    NPM_TOKEN("npm_token"),
    CAIRN_TOKEN("cairn_token"),
    AWS_ACCESS_KEY_ID("aws_access_key_id"),
    AWS_SECRET_KEY("aws_secret_key"),
    GOOGLE_API_KEY("google_api_key"),
    BEARER_TOKEN("bearer_token"),
    BASIC_AUTH("basic_auth"),
    PASSWORD("password"),
    SECRET_ASSIGNMENT("secret");

    private final String label;

    SecretKind(String label) {
        this.label = label;
    }

    /** Lower-case label, e.g. {@code github_token}. */
    public String label() {
        return label;
    }

    /** The text that replaces a secret of this kind, e.g. {@code [REDACTED:github_token]}. */
    public String marker() {
        return "[REDACTED:" + label + "]";
    }
}
