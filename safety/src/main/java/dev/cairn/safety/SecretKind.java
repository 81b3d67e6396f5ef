package dev.cairn.safety;

/** Kinds of secret {@link SecretRedactor} detects; {@link #label()} appears in the marker. */
public enum SecretKind {
    PRIVATE_KEY("private_key"),
    URL_CREDENTIALS("url_credentials"),
    JWT("jwt"),
    GITHUB_TOKEN("github_token"),
    OPENAI_KEY("openai_key"),
    ANTHROPIC_KEY("anthropic_key"),
    GITLAB_TOKEN("gitlab_token"),
    HUGGINGFACE_TOKEN("huggingface_token"),
    SENDGRID_KEY("sendgrid_key"),
    TWILIO_KEY("twilio_key"),
    SHOPIFY_TOKEN("shopify_token"),
    PYPI_TOKEN("pypi_token"),
    DOCKER_TOKEN("docker_token"),
    DIGITALOCEAN_TOKEN("digitalocean_token"),
    VAULT_TOKEN("vault_token"),
    GOOGLE_OAUTH_SECRET("google_oauth_secret"),
    AZURE_CLIENT_SECRET("azure_client_secret"),
    AZURE_STORAGE_KEY("azure_storage_key"),
    DATABRICKS_TOKEN("databricks_token"),
    LINEAR_KEY("linear_key"),
    NEW_RELIC_KEY("new_relic_key"),
    POSTMAN_KEY("postman_key"),
    GRAFANA_TOKEN("grafana_token"),
    TELEGRAM_BOT_TOKEN("telegram_bot_token"),
    AGE_SECRET_KEY("age_secret_key"),
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
    SECRET_ASSIGNMENT("secret"),
    /** A long token with a random secret's entropy and nothing around it to say what it is. */
    HIGH_ENTROPY_TOKEN("high_entropy_token");

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
