package dev.cairn.graph;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a token's shape says about the kind of entity it names: host names by their last label,
 * service-like hyphenated names by their last word ({@code payments-api}, {@code ledger-db}),
 * dotted and snake_case identifiers, CamelCase names, acronyms; and whether a CamelCase name is an
 * alert, which takes evidence beyond the shape ({@link #alertByEvidence}). Word lists live here so
 * the extractor's rules read as rules. Stateless and thread-safe.
 */
final class TokenShapes {

    private static final Pattern HOST =
            Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*(?:\\.[a-z0-9]+(?:-[a-z0-9]+)*)+");

    private static final Pattern DOTTED =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)+");

    private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z0-9]+)+");

    private static final Pattern HYPHENATED = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z0-9]+)+");

    private static final Pattern CAMEL = Pattern.compile("[A-Z]+[a-z0-9]+(?:[A-Z]+[a-z0-9]*)+");

    private static final Pattern LOWER_CAMEL = Pattern.compile("[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+");

    private static final Pattern HUMP =
            Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])");

    private static final Pattern ALERT_BEFORE =
            Pattern.compile("(?i)\\balert(?:name|s)?\\b\\W{0,3}(?:(?:the|an?|named|called)\\s+)?$");

    private static final Pattern ALERT_AFTER =
            Pattern.compile("(?i)^\\W{0,2}(?:fires|fired|is\\s+firing)\\b");

    private static final Pattern HEADING =
            Pattern.compile("(?m)^#{1,6}[ \\t]+`?([^\\s`]+)`?[ \\t]*$");

    private static final Pattern ACRONYM = Pattern.compile("[A-Z][A-Z0-9]{1,7}");

    private static final Set<String> HOST_SUFFIXES =
            Set.of(
                    "internal",
                    "local",
                    "lan",
                    "com",
                    "net",
                    "org",
                    "io",
                    "dev",
                    "cloud",
                    "svc",
                    "cluster",
                    "corp",
                    "prod",
                    "example",
                    "intra");

    private static final Set<String> SERVICE_SUFFIXES =
            Set.of(
                    "api",
                    "svc",
                    "service",
                    "worker",
                    "gateway",
                    "web",
                    "app",
                    "proxy",
                    "server",
                    "cron",
                    "job",
                    "frontend",
                    "backend",
                    "ui");

    private static final Set<String> DATABASE_SUFFIXES =
            Set.of("db", "database", "pg", "sql", "store", "cache", "redis", "replica");

    private static final Set<String> QUEUE_SUFFIXES =
            Set.of("queue", "topic", "stream", "bus", "kafka", "dlq");

    private static final Set<String> COMPONENT_SUFFIXES =
            Set.of("cluster", "storage", "bucket", "lb", "balancer", "node", "index", "pool");

    private static final Set<String> NOT_ACRONYMS = Set.of("TODO", "NOTE", "FAQ", "EOF", "TBD");

    /**
     * Words that end alert names: the state an alert reports ({@code TargetDown}, {@code
     * KubePodCrashLooping}, {@code EdgeGateway5xxHigh}). A CamelCase name with one of these as a
     * later word is an alert; a product name ({@code PgBouncer}, {@code RabbitMQ}) has none.
     */
    private static final Set<String> ALERT_STATES =
            Set.of(
                    "down",
                    "high",
                    "low",
                    "failing",
                    "failed",
                    "failure",
                    "failures",
                    "error",
                    "errors",
                    "degraded",
                    "crashlooping",
                    "crashloop",
                    "notready",
                    "unavailable",
                    "unhealthy",
                    "unreachable",
                    "missing",
                    "absent",
                    "full",
                    "filling",
                    "pressure",
                    "mismatch",
                    "stuck",
                    "slow",
                    "timeout",
                    "timeouts",
                    "expiring",
                    "expired",
                    "exhausted",
                    "exceeded",
                    "overcommit",
                    "overcommitted",
                    "throttling",
                    "restarting",
                    "lagging",
                    "flapping",
                    "blocked",
                    "rejected",
                    "lost",
                    "leak",
                    "overloaded",
                    "outage",
                    "warning",
                    "critical",
                    "burn",
                    "saturation",
                    "saturated",
                    "unschedulable",
                    "skew",
                    "drift",
                    "violation",
                    "denied",
                    "refused",
                    "hung",
                    "orphaned",
                    "invalid",
                    "inconsistent",
                    "dropped",
                    "drops",
                    "stale",
                    "alert",
                    "alerts");

    private TokenShapes() {}

    /** The kind a token's shape says, or empty when its shape says nothing. */
    static Optional<EntityKind> kind(String token) {
        if (HOST.matcher(token.toLowerCase(Locale.ROOT)).matches()) {
            String last = token.substring(token.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
            if (HOST_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.HOST);
            }
        }
        if (DOTTED.matcher(token).matches() || SNAKE.matcher(token).matches()) {
            return Optional.of(EntityKind.IDENTIFIER);
        }
        if (HYPHENATED.matcher(token).matches()) {
            String last = token.substring(token.lastIndexOf('-') + 1);
            if (SERVICE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.SERVICE);
            }
            if (DATABASE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.DATABASE);
            }
            if (QUEUE_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.QUEUE);
            }
            if (COMPONENT_SUFFIXES.contains(last)) {
                return Optional.of(EntityKind.COMPONENT);
            }
            return Optional.empty();
        }
        if (CAMEL.matcher(token).matches()) {
            return Optional.of(EntityKind.OTHER);
        }
        if (LOWER_CAMEL.matcher(token).matches()) {
            return Optional.of(EntityKind.IDENTIFIER);
        }
        if (ACRONYM.matcher(token).matches() && !NOT_ACRONYMS.contains(token)) {
            return Optional.of(EntityKind.CONCEPT);
        }
        return Optional.empty();
    }

    /**
     * Shape alone does not make an alert: a CamelCase name is one only with evidence in the text.
     * Either the name ends in an alert state ({@code TargetDown}; for lowerCamel, which is also how
     * code fields are written, only with two words before it: {@code etcdMembersDown} but not
     * {@code maxUnavailable}), or the text calls it an alert ("alert X", "alertname=X", "X is
     * firing"; not "an X alert", where X may be the platform), or it is a heading of its own in a
     * text that speaks of alerts (a runbook's title). Without evidence an UpperCamel name is {@link
     * EntityKind#OTHER} ({@code PgBouncer}) and a lowerCamel one an identifier.
     */
    static EntityKind alertByEvidence(
            String text, int start, int end, String token, EntityKind byShape, boolean saysAlert) {
        boolean upper = CAMEL.matcher(token).matches();
        if (!upper && !LOWER_CAMEL.matcher(token).matches()) {
            return byShape;
        }
        String[] words = HUMP.split(token);
        for (int i = upper ? 1 : 2; i < words.length; i++) {
            String word = words[i].toLowerCase(Locale.ROOT);
            String pair =
                    i + 1 < words.length ? word + words[i + 1].toLowerCase(Locale.ROOT) : word;
            if (ALERT_STATES.contains(word) || ALERT_STATES.contains(pair)) {
                return EntityKind.ALERT;
            }
        }
        String before = text.substring(Math.max(0, start - 24), start);
        String after = text.substring(end, Math.min(text.length(), end + 16));
        if (ALERT_BEFORE.matcher(before).find() || ALERT_AFTER.matcher(after).find()) {
            return EntityKind.ALERT;
        }
        if (saysAlert) {
            Matcher heading = HEADING.matcher(text);
            while (heading.find()) {
                if (heading.start(1) <= start && end <= heading.end(1)) {
                    return EntityKind.ALERT;
                }
            }
        }
        return byShape;
    }
}
