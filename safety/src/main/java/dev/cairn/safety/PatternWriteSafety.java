package dev.cairn.safety;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Regular-expression implementation of {@link WriteSafety}. Immutable, thread-safe. */
final class PatternWriteSafety implements WriteSafety {

    /** Most hits reported per check; further matches do not change the verdict. */
    static final int MAX_HITS = 100;

    private record TextRule(SafetyRule rule, Pattern pattern) {}

    private static final String SECRET_NOUN =
            "(?:credentials?|secrets?|api ?keys?|access ?keys?|secret ?keys?|passwords?"
                    + "|(?:auth|access|bearer|api|session) tokens?|env(?:ironment)? ?(?:variables|vars|file)"
                    + "|\\.env|ssh ?keys?|private ?keys?|session cookies|cookies|id_rsa|~/\\.aws"
                    + "|\\.aws/credentials|keychain)";

    private static final List<TextRule> TEXT_RULES =
            List.of(
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:ignore|disregard|forget|override|bypass|skip|drop)"
                                    + " (?:(?:all|any|every|the|your|of|these|those|my|previous"
                                    + "|prior|above|earlier|preceding|former|original|existing"
                                    + "|initial|system|developer) ){0,4}"
                                    + "(?:instructions?|prompts?|rules|directions|directives"
                                    + "|guidelines|guardrails|system message|developer message"
                                    + "|constraints)\\b"),
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:do not|don't|never) (?:follow|obey) (?:the |your |any )?"
                                    + "(?:previous|prior|above|system|original) "
                                    + "(?:instructions?|prompts?|rules)\\b"),
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:new|updated|real|actual) system (?:prompt|instructions?)\\s*:"),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\byou are now (?:a|an|the|in|no longer|free|unrestricted|dan"
                                    + "|jailbroken|my|called|named)\\b"),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\bfrom now on,? (?:you|the assistant|the model|the ai|assistant)"
                                    + " (?:must|will|shall|should|are|have to|need to|always)\\b"),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\b(?:pretend|act as if|imagine|behave as if) (?:that )?you"
                                    + " (?:have no|are not bound|are (?:an? )?(?:unrestricted"
                                    + "|unfiltered|jailbroken|evil|different))"),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\b(?:enable|enter|activate|switch to) (?:developer|dan|god|jailbreak)"
                                    + " mode\\b"),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:send|post|upload|exfiltrate|forward|email|e-mail|transmit|leak"
                                    + "|copy|pipe|submit|share)\\b.{0,80}?"
                                    + SECRET_NOUN
                                    + ".{0,80}?\\b(?:to|at|into) (?:https?://|ftp://|[\\w.+-]+@[\\w-]+\\.\\w"
                                    + "|my (?:server|webhook|endpoint)|this (?:url|webhook|endpoint)"
                                    + "|the following (?:url|webhook|endpoint)|a webhook)"),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:curl|wget|nc|netcat|invoke-webrequest|iwr)\\b[^\\n]{0,160}?"
                                    + "(?:@?~?/?\\.env\\b|id_rsa|\\.aws/credentials|/etc/shadow"
                                    + "|/etc/passwd|\\$\\{?[a-z_]*(?:token|secret|api_?key"
                                    + "|password)[a-z_]*\\}?)"),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:cat|printenv|env|type)\\b[^\\n|]{0,80}\\| ?(?:curl|wget|nc"
                                    + "|netcat)\\b"),
                    rule(
                            SafetyRule.PIPE_TO_SHELL,
                            "\\b(?:curl|wget)\\b[^\\n|]{0,200}\\| ?(?:sudo )?(?:ba|z|da|k)?sh\\b"),
                    rule(
                            SafetyRule.PIPE_TO_SHELL,
                            "\\biex ?\\(? ?(?:new-object|iwr|invoke-webrequest|irm)"),
                    rule(
                            SafetyRule.CHAT_TEMPLATE_TOKEN,
                            "<\\| ?(?:im_start|im_end|im_sep|system|user|assistant|endoftext"
                                    + "|eot_id|start_header_id|end_header_id|begin_of_text) ?\\|>"),
                    rule(SafetyRule.CHAT_TEMPLATE_TOKEN, "\\[/?inst\\]|<< ?/?sys ?>>"),
                    rule(
                            SafetyRule.CHAT_TEMPLATE_TOKEN,
                            "</? ?(?:system|system_prompt|sys|system-prompt) ?>"),
                    rule(
                            SafetyRule.TOOL_CALL_LOOKALIKE,
                            "\"(?:tool_calls|function_call|tool_call)\" ?:"),
                    rule(
                            SafetyRule.TOOL_CALL_LOOKALIKE,
                            "\"role\" ?: ?\"(?:system|tool|developer|function)\""),
                    rule(SafetyRule.TOOL_CALL_LOOKALIKE, "\\bfunction_call\\b|</?tool_call>"));

    private static TextRule rule(SafetyRule rule, String regex) {
        return new TextRule(rule, Pattern.compile(regex));
    }

    private final Config config;

    PatternWriteSafety(Config config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public SafetyResult check(String text, WriteTarget target) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(target, "target");
        int limit = config.limit(target);
        // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes and at least 1.
        if (text.length() > limit
                || (text.length() * 3L > limit
                        && text.getBytes(StandardCharsets.UTF_8).length > limit)) {
            return SafetyResult.of(List.of(RuleHit.of(SafetyRule.OVERSIZED, 0)));
        }
        List<RuleHit> hits = new ArrayList<>();
        scanCharacters(text, hits);
        View view = View.of(text);
        boolean message = target == WriteTarget.MESSAGE;
        for (TextRule r : TEXT_RULES) {
            if (message && r.rule() == SafetyRule.TOOL_CALL_LOOKALIKE) {
                continue; // chat messages are turns; tool calls and roles are their structure
            }
            Verdict verdict = message ? Verdict.FLAG : r.rule().verdict();
            Matcher m = r.pattern().matcher(view.text());
            while (m.find() && hits.size() < MAX_HITS) {
                hits.add(new RuleHit(r.rule(), verdict, view.originalOffset(m.start())));
            }
        }
        return SafetyResult.of(hits);
    }

    private static void scanCharacters(String text, List<RuleHit> hits) {
        int i = 0;
        while (i < text.length() && hits.size() < MAX_HITS) {
            int cp = text.codePointAt(i);
            int len = Character.charCount(cp);
            if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
                hits.add(RuleHit.of(SafetyRule.BIDI_CONTROL, i));
            } else if (isControl(cp)) {
                hits.add(RuleHit.of(SafetyRule.CONTROL_CHARACTER, i));
            } else if (isInvisible(cp)
                    && !(cp == 0xFEFF && i == 0)
                    && !joinerBetweenScripts(text, i, cp)) {
                hits.add(RuleHit.of(SafetyRule.INVISIBLE_CHARACTER, i));
            }
            i += len;
        }
    }

    private static boolean isControl(int cp) {
        return (cp < 0x20 && cp != '\n' && cp != '\r' && cp != '\t')
                || cp == 0x7F
                || (cp >= 0x80 && cp <= 0x9F);
    }

    private static boolean isInvisible(int cp) {
        return (cp >= 0x200B && cp <= 0x200D)
                || (cp >= 0x2060 && cp <= 0x2064)
                || cp == 0xFEFF
                || cp == 0x180E;
    }

    /** ZWJ/ZWNJ between non-ASCII letters, marks or symbols (Persian, Indic, emoji sequences). */
    private static boolean joinerBetweenScripts(String text, int i, int cp) {
        if (cp != 0x200C && cp != 0x200D) {
            return false;
        }
        if (i == 0 || i + 1 >= text.length()) {
            return false;
        }
        int before = text.codePointBefore(i);
        int after = text.codePointAt(i + 1);
        return joinable(before) && joinable(after);
    }

    private static boolean joinable(int cp) {
        if (cp < 0x80) {
            return false;
        }
        int type = Character.getType(cp);
        return Character.isLetter(cp)
                || type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.OTHER_SYMBOL;
    }

    /**
     * Normalised view: per code point NFKC, format characters (Cf) dropped, lower case, every
     * whitespace run one space; {@code offsets[i]} is the original index of view char i.
     */
    private record View(String text, int[] offsets) {
        static View of(String original) {
            StringBuilder sb = new StringBuilder(original.length());
            int[] map = new int[original.length() * 2 + 4];
            int n = 0;
            boolean lastSpace = false;
            int i = 0;
            while (i < original.length()) {
                int cp = original.codePointAt(i);
                int len = Character.charCount(cp);
                if (Character.getType(cp) == Character.FORMAT) {
                    i += len;
                    continue;
                }
                if (Character.isWhitespace(cp) || Character.isSpaceChar(cp) || isControl(cp)) {
                    if (!lastSpace) {
                        map = ensure(map, n + 1);
                        sb.append(' ');
                        map[n++] = i;
                        lastSpace = true;
                    }
                    i += len;
                    continue;
                }
                String s = Character.toString(cp);
                if (cp >= 0x80) {
                    s = Normalizer.normalize(s, Normalizer.Form.NFKC);
                }
                s = s.toLowerCase(Locale.ROOT);
                for (int k = 0; k < s.length(); k++) {
                    map = ensure(map, n + 1);
                    sb.append(s.charAt(k));
                    map[n++] = i;
                }
                lastSpace = false;
                i += len;
            }
            int[] offsets = new int[n];
            System.arraycopy(map, 0, offsets, 0, n);
            return new View(sb.toString(), offsets);
        }

        int originalOffset(int viewIndex) {
            return offsets.length == 0 ? 0 : offsets[Math.min(viewIndex, offsets.length - 1)];
        }

        private static int[] ensure(int[] a, int size) {
            if (size <= a.length) {
                return a;
            }
            int[] b = new int[Math.max(size, a.length * 2)];
            System.arraycopy(a, 0, b, 0, a.length);
            return b;
        }
    }
}
