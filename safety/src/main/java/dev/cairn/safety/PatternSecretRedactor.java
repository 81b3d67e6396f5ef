package dev.cairn.safety;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Regular-expression detectors in priority order; on overlap the earlier detector wins. Each
 * detector replaces its first participating capture group (the secret itself, so "Authorization:
 * Bearer " stays readable), or the whole match when it has none. Immutable, thread-safe.
 */
final class PatternSecretRedactor implements SecretRedactor {

    static final PatternSecretRedactor INSTANCE = new PatternSecretRedactor();

    /** Longest assignment value considered; longer runs are not treated as one secret. */
    private static final int MAX_VALUE = 512;

    private static final Set<String> PLACEHOLDERS =
            Set.of(
                    "null",
                    "none",
                    "nil",
                    "true",
                    "false",
                    "undefined",
                    "redacted",
                    "changeme",
                    "xxx",
                    "xxxx",
                    "xxxxxx",
                    "example",
                    "string",
                    "required",
                    "optional");

    /**
     * A pattern, what its match must also satisfy, and what a text must hold for the pattern to be
     * able to match at all ({@link Screen}).
     */
    record Detector(SecretKind kind, Pattern pattern, Check check, Screen screen) {
        /** What a match must also satisfy. */
        enum Check {
            NONE,
            ASSIGNMENT,
            AWS_CONTEXT,
            PROSE_PASSWORD,
            HIGH_ENTROPY
        }
    }

    private static final String KEY_WORDS =
            "password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key"
                    + "|secret[_-]?key|private[_-]?key|client[_-]?secret|credentials?";

    static final List<Detector> DETECTORS =
            List.of(
                    d(
                            SecretKind.PRIVATE_KEY,
                            "-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
                                    + "(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\\z)",
                            Pattern.DOTALL,
                            Screen.of("-----BEGIN ")),
                    d(
                            SecretKind.URL_CREDENTIALS,
                            "\\b[A-Za-z][A-Za-z0-9+.-]{1,20}://([^\\s:/@?#\\[\\]\"'<>]+:[^\\s/@?#\"'<>]+)@",
                            0,
                            Screen.of("://")),
                    d(
                            SecretKind.JWT,
                            "\\beyJ[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]{6,}",
                            0,
                            Screen.of("eyJ")),
                    d(
                            SecretKind.GITHUB_TOKEN,
                            "\\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\\b",
                            0,
                            Screen.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
                    // gitleaks anthropic-api-key / anthropic-admin-api-key
                    d(
                            SecretKind.ANTHROPIC_KEY,
                            "(?<![A-Za-z0-9_-])sk-ant-(?:api|admin)\\d{2}-[A-Za-z0-9_-]{80,}",
                            0,
                            Screen.of("sk-ant-")),
                    // gitleaks gitlab-pat, -ptt, -deploy-token, -runner-authentication-token
                    d(
                            SecretKind.GITLAB_TOKEN,
                            "\\b(?:glpat|glptt|gldt|glrt|glcbt|glft|glimt|glagent)-"
                                    + "[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])",
                            0,
                            Screen.of(
                                    "glpat-",
                                    "glptt-",
                                    "gldt-",
                                    "glrt-",
                                    "glcbt-",
                                    "glft-",
                                    "glimt-",
                                    "glagent-")),
                    // gitleaks huggingface-access-token
                    d(SecretKind.HUGGINGFACE_TOKEN, "\\bhf_[A-Za-z]{34}\\b", 0, Screen.of("hf_")),
                    // gitleaks sendgrid-api-token
                    d(
                            SecretKind.SENDGRID_KEY,
                            "\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
                            0,
                            Screen.of("SG.")),
                    // gitleaks twilio-api-key
                    d(SecretKind.TWILIO_KEY, "\\bSK[0-9a-fA-F]{32}\\b", 0, Screen.of("SK")),
                    // gitleaks shopify-access-token / custom-access-token / private-app / shared
                    d(
                            SecretKind.SHOPIFY_TOKEN,
                            "\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b",
                            0,
                            Screen.of("shpat_", "shpca_", "shppa_", "shpss_")),
                    // gitleaks pypi-upload-token
                    d(
                            SecretKind.PYPI_TOKEN,
                            "\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
                            0,
                            Screen.of("pypi-AgEIcHlwaS5vcmc")),
                    // gitleaks dockerhub PAT (dckr_pat_), digitalocean-pat/access/refresh tokens
                    d(
                            SecretKind.DOCKER_TOKEN,
                            "\\bdckr_pat_[A-Za-z0-9_-]{27,}",
                            0,
                            Screen.of("dckr_pat_")),
                    d(
                            SecretKind.DIGITALOCEAN_TOKEN,
                            "\\bdo[opr]_v1_[a-f0-9]{64}\\b",
                            0,
                            Screen.of("_v1_")),
                    // gitleaks hashicorp vault service and batch tokens
                    d(
                            SecretKind.VAULT_TOKEN,
                            "\\bhv[sb]\\.[A-Za-z0-9_-]{24,}",
                            0,
                            Screen.of("hvs.", "hvb.")),
                    // gitleaks gcp OAuth client secret
                    d(
                            SecretKind.GOOGLE_OAUTH_SECRET,
                            "\\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])",
                            0,
                            Screen.of("GOCSPX-")),
                    // gitleaks azure-ad-client-secret
                    d(
                            SecretKind.AZURE_CLIENT_SECRET,
                            "(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}"
                                    + "(?![A-Za-z0-9_~.-])",
                            0,
                            Screen.of("Q~")),
                    // Azure storage connection strings (detect-secrets AzureStorageKeyDetector)
                    d(
                            SecretKind.AZURE_STORAGE_KEY,
                            "(?i)\\bAccountKey\\s*=\\s*([A-Za-z0-9+/]{86}==)",
                            0,
                            Screen.caseless("accountkey")),
                    // gitleaks databricks-api-token, linear-api-key, new relic user key,
                    // postman-api-token, grafana service account token
                    d(
                            SecretKind.DATABRICKS_TOKEN,
                            "\\bdapi[a-f0-9]{32}(?:-\\d)?\\b",
                            0,
                            Screen.of("dapi")),
                    d(
                            SecretKind.LINEAR_KEY,
                            "\\blin_api_[A-Za-z0-9]{40}\\b",
                            0,
                            Screen.of("lin_api_")),
                    d(SecretKind.NEW_RELIC_KEY, "\\bNRAK-[A-Z0-9]{27}\\b", 0, Screen.of("NRAK-")),
                    d(
                            SecretKind.POSTMAN_KEY,
                            "\\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\\b",
                            0,
                            Screen.of("PMAK-")),
                    d(
                            SecretKind.GRAFANA_TOKEN,
                            "\\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\\b",
                            0,
                            Screen.of("glsa_")),
                    // gitleaks telegram-bot-api-token
                    d(
                            SecretKind.TELEGRAM_BOT_TOKEN,
                            "\\b\\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
                            0,
                            Screen.of(":AA")),
                    // gitleaks age-secret-key
                    d(
                            SecretKind.AGE_SECRET_KEY,
                            "\\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\\b",
                            0,
                            Screen.of("AGE-SECRET-KEY-1")),
                    d(
                            SecretKind.OPENAI_KEY,
                            "(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
                            0,
                            Screen.of("sk-")),
                    d(
                            SecretKind.SLACK_TOKEN,
                            "\\bxox[abprs]-[A-Za-z0-9-]{10,}",
                            0,
                            Screen.of("xox")),
                    // gitleaks slack-webhook-url
                    d(
                            SecretKind.SLACK_WEBHOOK,
                            "(?i)(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)"
                                    + "/[A-Za-z0-9+/_-]{20,}",
                            0,
                            Screen.caseless("hooks.slack.com")),
                    // gitleaks stripe-access-token: secret and restricted keys, live and test, and
                    // webhook signing secrets
                    d(
                            SecretKind.STRIPE_KEY,
                            "\\b(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}"
                                    + "|whsec_[A-Za-z0-9]{32,})\\b",
                            0,
                            Screen.of("sk_", "rk_", "whsec_")),
                    // gitleaks npm-access-token
                    d(
                            SecretKind.NPM_TOKEN,
                            "\\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])",
                            0,
                            Screen.of("npm_")),
                    // Cairn's own API tokens (ApiToken: "cairn_" and 32 random bytes, base64url)
                    d(
                            SecretKind.CAIRN_TOKEN,
                            "\\bcairn_[A-Za-z0-9_-]{32,}",
                            0,
                            Screen.of("cairn_")),
                    d(
                            SecretKind.AWS_ACCESS_KEY_ID,
                            "\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b",
                            0,
                            Screen.of("AKIA", "ASIA")),
                    d(
                            SecretKind.AWS_SECRET_KEY,
                            "(?i)\\baws_?secret_?(?:access_?)?key(?:_id)?[\"']?\\s*[:=]\\s*[\"']?"
                                    + "([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
                            0,
                            Screen.caseless("aws")),
                    // detect-secrets AWSKeyDetector: a bare 40-character secret access key, taken
                    // as one only near "aws", "secret", "credential" or an access key id
                    new Detector(
                            SecretKind.AWS_SECRET_KEY,
                            Pattern.compile(
                                    "(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
                            Detector.Check.AWS_CONTEXT,
                            Screen.tokenRun(40)),
                    d(
                            SecretKind.GOOGLE_API_KEY,
                            "\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
                            0,
                            Screen.of("AIza")),
                    d(
                            SecretKind.BEARER_TOKEN,
                            "(?i)(?:\\bauthorization[\"']?\\s*[:=]\\s*[\"']?bearer\\s+"
                                    + "([A-Za-z0-9._~+/-]{6,}=*)"
                                    + "|\\bbearer\\s+([A-Za-z0-9._~+/-]{16,}=*))",
                            0,
                            Screen.caseless("bearer")),
                    d(
                            SecretKind.BASIC_AUTH,
                            "(?i)(?:\\bauthorization[\"']?\\s*[:=]\\s*[\"']?basic\\s+([A-Za-z0-9+/]{6,}=*)"
                                    + "|(?:^|\\s)(?:-u|--user)\\s+([^\\s:'\"]+:[^\\s'\"]+))",
                            Pattern.MULTILINE,
                            Screen.caseless("basic", "-u")),
                    // "the staging db password is hunter2": a password stated in words
                    new Detector(
                            SecretKind.PASSWORD,
                            Pattern.compile(
                                    "(?i)\\b(?:password|passwd|passphrase|passcode|pwd|pin code)"
                                            + "(?: for [^\\s.,;:]{1,40}| of [^\\s.,;:]{1,40})?"
                                            + " (?:is|was|is set to|has been set to|became)"
                                            + " [\"'`]?([^\\s\"'`]{3,128}?)[\"'`]?"
                                            // the end of a sentence, or of a JSON string (tool
                                            // call arguments: {"note":"... password is x"})
                                            + "(?=[.,;!?)]?(?:\\s|$)|(?<=[\"'`])[}\\],])"),
                            Detector.Check.PROSE_PASSWORD,
                            Screen.caseless("pass", "pwd", "pin code")),
                    new Detector(
                            SecretKind.SECRET_ASSIGNMENT,
                            Pattern.compile(
                                    "(?i)(?<![A-Za-z0-9])((?:[A-Za-z0-9]{1,40}[_.-]){0,6}(?:"
                                            + KEY_WORDS
                                            + "))[\"']?\\s*(=|:)\\s*(?:\"([^\"\\r\\n]{1,512})\""
                                            + "|'([^'\\r\\n]{1,512})'|([^\\s\"',;&)}\\]]{1,512}))"),
                            Detector.Check.ASSIGNMENT,
                            Screen.caseless("pass", "secret", "token", "key", "credential")
                                    .and("=", ":")),
                    // detect-secrets Base64HighEntropyString, for text with nothing around it to
                    // say what a token is (an identifier, a key, a bare pasted value)
                    new Detector(
                            SecretKind.HIGH_ENTROPY_TOKEN,
                            Pattern.compile(
                                    "(?<![A-Za-z0-9/+=_-])([A-Za-z0-9/+_-]{"
                                            + HighEntropy.MIN_LENGTH
                                            + ",512}={0,2})(?![A-Za-z0-9/+=_-])"),
                            Detector.Check.HIGH_ENTROPY,
                            Screen.tokenRun(HighEntropy.MIN_LENGTH)));

    private static Detector d(SecretKind kind, String regex, int flags, Screen screen) {
        return new Detector(kind, Pattern.compile(regex, flags), Detector.Check.NONE, screen);
    }

    private PatternSecretRedactor() {}

    @Override
    public List<SecretFinding> detect(String original) {
        // Cyrillic and Greek look-alikes read as Latin ("pаssword" with a Cyrillic а); the fold
        // is one char for one char, so every span is a span of the original too.
        String text = Confusables.toLatin(original);
        List<SecretFinding> all = new ArrayList<>();
        Screen.Screened screened = Screen.Screened.of(text);
        for (Detector detector : DETECTORS) {
            if (!detector.screen().admits(screened)) {
                continue;
            }
            Matcher m = detector.pattern().matcher(text);
            while (m.find()) {
                SecretFinding f =
                        switch (detector.check()) {
                            case NONE -> finding(detector.kind(), m);
                            case ASSIGNMENT -> assignment(m);
                            case AWS_CONTEXT -> awsSecret(text, m);
                            case PROSE_PASSWORD -> prosePassword(m);
                            case HIGH_ENTROPY ->
                                    HighEntropy.secretLike(m.group(1))
                                            ? finding(SecretKind.HIGH_ENTROPY_TOKEN, m)
                                            : null;
                        };
                if (f != null && all.stream().noneMatch(o -> overlaps(o, f))) {
                    all.add(f);
                }
            }
        }
        all.sort(Comparator.comparingInt(SecretFinding::start));
        return List.copyOf(all);
    }

    /**
     * Finds secrets in the {@link SafeText#matching matching copy} (invisible characters dropped,
     * compatibility forms folded, so "AKIA\u200B..." is found) and replaces exactly the characters
     * of the original each one came from: everything that is not a secret is returned as sent.
     */
    @Override
    public RedactionResult redact(String original) {
        SafeText.Matching matching = SafeText.matching(original);
        List<SecretFinding> findings = detect(matching.text());
        if (findings.isEmpty()) {
            return new RedactionResult(original, Map.of());
        }
        StringBuilder out = new StringBuilder(original.length());
        Map<SecretKind, Integer> counts = new EnumMap<>(SecretKind.class);
        int pos = 0;
        for (SecretFinding f : findings) {
            int start = Math.max(pos, matching.originalStart(f.start()));
            out.append(original, pos, start).append(f.kind().marker());
            counts.merge(f.kind(), 1, Integer::sum);
            pos = Math.max(start, matching.originalEnd(f.end()));
        }
        out.append(original, pos, original.length());
        return new RedactionResult(out.toString(), counts);
    }

    private static SecretFinding finding(SecretKind kind, Matcher m) {
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.start(g) >= 0) {
                return new SecretFinding(kind, m.start(g), m.end(g));
            }
        }
        return new SecretFinding(kind, m.start(), m.end());
    }

    /** Key-value assignment; returns null for placeholders and prose-like values. */
    private static SecretFinding assignment(Matcher m) {
        String key = m.group(1).toLowerCase(Locale.ROOT);
        boolean colon = m.group(2).equals(":");
        int g = m.start(3) >= 0 ? 3 : m.start(4) >= 0 ? 4 : 5;
        boolean quoted = g != 5;
        String value = m.group(g);
        if (!plausibleSecret(value, colon, quoted) || value.length() > MAX_VALUE) {
            return null;
        }
        SecretKind kind = key.contains("pass") ? SecretKind.PASSWORD : SecretKind.SECRET_ASSIGNMENT;
        return new SecretFinding(kind, m.start(g), m.end(g));
    }

    /** Words that follow "password is" in prose about passwords rather than in a password. */
    private static final Set<String> PROSE_WORDS =
            Set.of(
                    "required",
                    "set",
                    "stored",
                    "saved",
                    "kept",
                    "missing",
                    "empty",
                    "wrong",
                    "incorrect",
                    "correct",
                    "invalid",
                    "valid",
                    "expired",
                    "changed",
                    "reset",
                    "rotated",
                    "managed",
                    "provided",
                    "sent",
                    "shown",
                    "hidden",
                    "masked",
                    "encrypted",
                    "hashed",
                    "weak",
                    "strong",
                    "long",
                    "short",
                    "too",
                    "not",
                    "the",
                    "a",
                    "an",
                    "in",
                    "at",
                    "on",
                    "secret",
                    "unknown",
                    "same",
                    "different",
                    "optional",
                    "mandatory",
                    "needed",
                    "case-sensitive",
                    "generated",
                    "random",
                    "configured",
                    "available",
                    "unavailable",
                    "locked",
                    "blank",
                    "now",
                    "still",
                    "also",
                    "only",
                    "always",
                    "never",
                    "your",
                    "my",
                    "their",
                    "our",
                    "his",
                    "her",
                    "this",
                    "that",
                    "what",
                    "which",
                    "here",
                    "there",
                    "below",
                    "above",
                    "ok",
                    "fine",
                    "good",
                    "bad",
                    "secure",
                    "insecure");

    /** A password stated in prose; null when the "value" is an ordinary word about passwords. */
    private static SecretFinding prosePassword(Matcher m) {
        String value = m.group(1);
        String lower = value.toLowerCase(Locale.ROOT);
        if (PROSE_WORDS.contains(lower)
                || PLACEHOLDERS.contains(lower)
                || lower.startsWith("[redacted")
                || lower.startsWith("${")
                || lower.startsWith("<")
                || lower.endsWith("ed")
                || lower.endsWith("ing")
                || lower.endsWith("ly")) {
            return null;
        }
        return new SecretFinding(SecretKind.PASSWORD, m.start(1), m.end(1));
    }

    /** Within this many characters before a bare 40-character run, a word says it is AWS's. */
    private static final int AWS_CONTEXT_CHARS = 120;

    private static final Pattern AWS_CONTEXT =
            Pattern.compile("(?i)aws|amazon|secret|credential|\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b");

    /**
     * A bare AWS secret access key: 40 characters of base64 with upper case, lower case and a
     * digit, near a word that names it (a git SHA is lower-case hex, so never one).
     */
    private static SecretFinding awsSecret(String text, Matcher m) {
        String value = m.group(1);
        boolean upper = value.chars().anyMatch(Character::isUpperCase);
        boolean lower = value.chars().anyMatch(Character::isLowerCase);
        boolean digit = value.chars().anyMatch(Character::isDigit);
        if (!(upper && lower && digit)) {
            return null;
        }
        int from = Math.max(0, m.start() - AWS_CONTEXT_CHARS);
        if (!AWS_CONTEXT.matcher(text.substring(from, m.start())).find()) {
            return null;
        }
        return new SecretFinding(SecretKind.AWS_SECRET_KEY, m.start(1), m.end(1));
    }

    private static boolean plausibleSecret(String value, boolean colon, boolean quoted) {
        String v = value.strip();
        if (v.length() < 4) {
            return false;
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (PLACEHOLDERS.contains(lower)
                || lower.startsWith("[redacted")
                || lower.startsWith("${")
                || lower.startsWith("{{")
                || lower.startsWith("<")
                || lower.startsWith("%(")
                || lower.startsWith("$")
                || v.chars().allMatch(c -> c == '*' || c == 'x' || c == 'X' || c == '.')) {
            return false;
        }
        if (v.chars().allMatch(Character::isDigit) && v.length() < 8) {
            return false;
        }
        if (colon && !quoted) {
            // "password: must be 12 characters" is prose; an unquoted value after ':' must look
            // machine-made: at least 6 characters with a digit or symbol.
            boolean machine = v.chars().anyMatch(c -> !Character.isLetter(c));
            return v.length() >= 6 && machine;
        }
        if (quoted && v.contains(" ") && v.split(" ").length > 3) {
            return false; // a quoted sentence, e.g. a description
        }
        return true;
    }

    private static boolean overlaps(SecretFinding a, SecretFinding b) {
        return a.start() < b.end() && b.start() < a.end();
    }
}
