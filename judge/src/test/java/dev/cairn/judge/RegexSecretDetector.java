package dev.cairn.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small real {@link SecretDetector} for tests: OpenAI-style {@code sk-...} keys and GitHub {@code
 * ghp_...} tokens. Thread-safe.
 */
final class RegexSecretDetector implements SecretDetector {

    private static final Pattern OPENAI = Pattern.compile("\\bsk-[A-Za-z0-9_-]{20,}");
    private static final Pattern GITHUB = Pattern.compile("\\bghp_[A-Za-z0-9]{36}\\b");

    @Override
    public List<Finding> detect(String text) {
        List<Finding> out = new ArrayList<>();
        add(out, OPENAI.matcher(text), "openai-api-key");
        add(out, GITHUB.matcher(text), "github-token");
        out.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return out;
    }

    private static void add(List<Finding> out, Matcher m, String kind) {
        while (m.find()) {
            out.add(new Finding(kind, m.start(), m.end()));
        }
    }
}
