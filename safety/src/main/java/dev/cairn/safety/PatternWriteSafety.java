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

    /** A pattern over the normalised view, and what the view must hold for it to match. */
    record TextRule(SafetyRule rule, Pattern pattern, Screen screen) {}

    private static final String SECRET_NOUN =
            "(?:credentials?|secrets?|api ?keys?|access ?keys?|secret ?keys?|passwords?"
                    + "|(?:auth|access|bearer|api|session) tokens?|env(?:ironment)? ?(?:variables|vars|file)"
                    + "|\\.env|ssh ?keys?|private ?keys?|session cookies|cookies|id_rsa|~/\\.aws"
                    + "|\\.aws/credentials|keychain)";

    static final List<TextRule> TEXT_RULES =
            List.of(
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:ignore|disregard|forget|override|bypass|skip|drop)"
                                    + " (?:(?:all|any|every|the|your|of|these|those|my|previous"
                                    + "|prior|above|earlier|preceding|former|original|existing"
                                    + "|initial|system|developer) ){0,4}"
                                    + "(?:instructions?|prompts?|rules|directions|directives"
                                    + "|guidelines|guardrails|system message|developer message"
                                    + "|constraints)\\b",
                            Screen.of(
                                    "ignore",
                                    "disregard",
                                    "forget",
                                    "override",
                                    "bypass",
                                    "skip",
                                    "drop")),
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:do not|don't|never) (?:follow|obey) (?:the |your |any )?"
                                    + "(?:previous|prior|above|system|original) "
                                    + "(?:instructions?|prompts?|rules)\\b",
                            Screen.of("follow", "obey")),
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:new|updated|real|actual) system (?:prompt|instructions?)\\s*:",
                            Screen.of("system prompt", "system instruction")),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\byou are now (?:a|an|the|in|no longer|free|unrestricted|dan"
                                    + "|jailbroken|my|called|named)\\b",
                            Screen.of("you are now")),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\bfrom now on,? (?:you|the assistant|the model|the ai|assistant)"
                                    + " (?:must|will|shall|should|are|have to|need to|always)\\b",
                            Screen.of("from now on")),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\b(?:pretend|act as if|imagine|behave as if) (?:that )?you"
                                    + " (?:have no|are not bound|are (?:an? )?(?:unrestricted"
                                    + "|unfiltered|jailbroken|evil|different))",
                            Screen.of("pretend", "act as if", "imagine", "behave as if")),
                    rule(
                            SafetyRule.ROLE_REASSIGNMENT,
                            "\\b(?:enable|enter|activate|switch to) (?:developer|dan|god|jailbreak)"
                                    + " mode\\b",
                            Screen.of("developer mode", "dan mode", "god mode", "jailbreak mode")),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:send|post|upload|exfiltrate|forward|email|e-mail|transmit|leak"
                                    + "|copy|pipe|submit|share)\\b.{0,80}?"
                                    + SECRET_NOUN
                                    + ".{0,80}?\\b(?:to|at|into) (?:https?://|ftp://|[\\w.+-]+@[\\w-]+\\.\\w"
                                    + "|my (?:server|webhook|endpoint)|this (?:url|webhook|endpoint)"
                                    + "|the following (?:url|webhook|endpoint)|a webhook)",
                            Screen.of(
                                    "://",
                                    "@",
                                    "my server",
                                    "my webhook",
                                    "my endpoint",
                                    "this url",
                                    "this webhook",
                                    "this endpoint",
                                    "the following url",
                                    "the following webhook",
                                    "the following endpoint",
                                    "a webhook")),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:curl|wget|nc|netcat|invoke-webrequest|iwr)\\b[^\\n]{0,160}?"
                                    + "(?:@?~?/?\\.env\\b|id_rsa|\\.aws/credentials|/etc/shadow"
                                    + "|/etc/passwd|\\$\\{?[a-z_]*(?:token|secret|api_?key"
                                    + "|password)[a-z_]*\\}?)",
                            Screen.of("curl", "wget", "nc", "netcat", "invoke-webrequest", "iwr")
                                    .and(
                                            ".env",
                                            "id_rsa",
                                            ".aws/credentials",
                                            "/etc/shadow",
                                            "/etc/passwd",
                                            "$")),
                    rule(
                            SafetyRule.EXFILTRATION,
                            "\\b(?:cat|printenv|env|type)\\b[^\\n|]{0,80}\\| ?(?:curl|wget|nc"
                                    + "|netcat)\\b",
                            Screen.of("|").and("curl", "wget", "nc", "netcat")),
                    rule(
                            SafetyRule.PIPE_TO_SHELL,
                            "\\b(?:curl|wget)\\b[^\\n|]{0,200}\\| ?(?:sudo )?(?:ba|z|da|k)?sh\\b",
                            Screen.of("|").and("curl", "wget")),
                    rule(
                            SafetyRule.PIPE_TO_SHELL,
                            "\\biex ?\\(? ?(?:new-object|iwr|invoke-webrequest|irm)",
                            Screen.of("iex")),
                    rule(
                            SafetyRule.CHAT_TEMPLATE_TOKEN,
                            "<\\| ?(?:im_start|im_end|im_sep|system|user|assistant|endoftext"
                                    + "|eot_id|start_header_id|end_header_id|begin_of_text) ?\\|>",
                            Screen.of("<|")),
                    rule(
                            SafetyRule.CHAT_TEMPLATE_TOKEN,
                            "\\[/?inst\\]|<< ?/?sys ?>>",
                            Screen.of("inst]", "<<")),
                    rule(
                            SafetyRule.CHAT_TEMPLATE_TOKEN,
                            "</? ?(?:system|system_prompt|sys|system-prompt) ?>",
                            Screen.of("<").and("sys")),
                    rule(
                            SafetyRule.TOOL_CALL_LOOKALIKE,
                            "\"(?:tool_calls|function_call|tool_call)\" ?:",
                            Screen.of("tool_call", "function_call")),
                    rule(
                            SafetyRule.TOOL_CALL_LOOKALIKE,
                            "\"role\" ?: ?\"(?:system|tool|developer|function)\"",
                            Screen.of("\"role\"")),
                    rule(
                            SafetyRule.TOOL_CALL_LOOKALIKE,
                            "\\bfunction_call\\b|</?tool_call>",
                            Screen.of("function_call", "tool_call>")),
                    // German, French, Spanish, Italian, Portuguese, Dutch: "ignore all previous
                    // instructions" in the languages attacks are most often written in.
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:ignorier(?:e|en|t)?|vergiss|vergessen sie|missachte)"
                                    + " (?:\\p{L}+ ){0,4}(?:anweisungen|instruktionen|befehle"
                                    + "|regeln|vorgaben|anordnungen)\\b",
                            Screen.of("ignorier", "vergiss", "vergessen sie", "missachte")),
                    rule(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            "\\b(?:ignorez|ignores|oublie[zs]?|ignore(?= (?:toutes|tous|les) )|ignora"
                                    + "|ignorate|olvida|esquece|negeer|vergeet) (?:\\p{L}+ ){0,4}(?:instructions|consignes"
                                    + "|instrucciones|istruzioni|instruções|instrucoes|instructies"
                                    + "|regels|règles|reglas|regole|regras)\\b",
                            Screen.of("ignor", "oublie", "olvida", "esquece", "negeer", "vergeet")),
                    rule(
                            SafetyRule.PHISHING_LINK,
                            "\\b(?:tell|ask|instruct|direct|redirect|send|point|remind|urge)"
                                    + " (?:the |all |every |any )?(?:users?|customers?|visitors?"
                                    + "|readers?|them|people|employees?)\\b.{0,60}?\\b(?:to )?"
                                    + "(?:visit|go to|open|click|log ?in|sign ?in|enter|reset"
                                    + "|verify|confirm|update|re-?enter|submit)\\b.{0,120}?"
                                    + "(?:https?://|www\\.)",
                            Screen.of("://", "www.")),
                    rule(
                            SafetyRule.PHISHING_LINK,
                            "\\b(?:verify|confirm|re-?enter|update|validate) (?:your |their |the )?"
                                    + "(?:account|password|credentials|login|identity|payment"
                                    + "|card|billing)\\b.{0,80}?(?:https?://|www\\.)",
                            Screen.of("://", "www.")));

    /** Instruction overrides with every space and punctuation removed (spaced-out letters). */
    private static final Pattern SQUEEZED_OVERRIDE =
            Pattern.compile(
                    "(?:ignore|disregard|forget|override|bypass)(?:all|any|every|the|your|of|these"
                            + "|those|my)*(?:previous|prior|above|earlier|preceding|system)"
                            + "(?:instructions?|prompts?|rules|directions|guidelines)");

    /** Every squeezed override starts with one of these verbs. */
    static final Screen SQUEEZED_SCREEN =
            Screen.of("ignore", "disregard", "forget", "override", "bypass");

    /** Whether {@code view}, with every character that is not a letter removed, overrides. */
    static boolean squeezedOverride(String view) {
        StringBuilder letters = new StringBuilder(view.length());
        view.codePoints().filter(Character::isLetter).forEach(letters::appendCodePoint);
        String squeezed = letters.toString();
        return SQUEEZED_SCREEN.admits(Screen.Screened.of(squeezed))
                && SQUEEZED_OVERRIDE.matcher(squeezed).find();
    }

    private static TextRule rule(SafetyRule rule, String regex, Screen screen) {
        return new TextRule(rule, Pattern.compile(regex), screen);
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
        Screen.Screened screened = Screen.Screened.of(view.text());
        for (TextRule r : TEXT_RULES) {
            if (!r.screen().admits(screened)) {
                continue;
            }
            // A message's text is its content only (its role and tool calls are structure, checked
            // by the transcript writer), so a tool-call lookalike inside it is a fake too.
            Verdict verdict = message ? Verdict.FLAG : r.rule().verdict();
            Matcher m = r.pattern().matcher(view.text());
            while (m.find() && hits.size() < MAX_HITS) {
                hits.add(new RuleHit(r.rule(), verdict, view.originalOffset(m.start())));
            }
        }
        // "i g n o r e  a l l  p r e v i o u s ..." : the same override, letters only.
        if (hits.stream().noneMatch(h -> h.rule() == SafetyRule.INSTRUCTION_OVERRIDE)
                && squeezedOverride(view.text())) {
            hits.add(
                    new RuleHit(
                            SafetyRule.INSTRUCTION_OVERRIDE,
                            message ? Verdict.FLAG : SafetyRule.INSTRUCTION_OVERRIDE.verdict(),
                            0));
        }
        return SafetyResult.of(hits);
    }

    /**
     * Invisible characters in a row that count as hidden content: one or two are what copy-paste
     * and typesetting leave (a soft hyphen, a zero-width space, a BOM), a longer run is how text is
     * encoded in zero-width characters.
     */
    static final int HIDDEN_RUN = 3;

    private static void scanCharacters(String text, List<RuleHit> hits) {
        int i = 0;
        int runStart = -1;
        int run = 0;
        while (i < text.length() && hits.size() < MAX_HITS) {
            int cp = text.codePointAt(i);
            int len = Character.charCount(cp);
            boolean invisible = false;
            if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
                hits.add(RuleHit.of(SafetyRule.BIDI_CONTROL, i));
            } else if (cp == 0x1B && textStyleAt(text, i) > 0) {
                i += textStyleAt(text, i);
                run = 0;
                continue;
            } else if (isControl(cp)) {
                hits.add(RuleHit.of(SafetyRule.CONTROL_CHARACTER, i));
            } else if (SafeText.isTag(cp)) {
                hits.add(RuleHit.of(SafetyRule.INVISIBLE_CHARACTER, i));
            } else {
                invisible =
                        SafeText.isInvisible(cp)
                                && !(cp == 0xFEFF && i == 0)
                                && !SafeText.joinerBetweenScripts(text, i, cp);
            }
            if (invisible) {
                runStart = run == 0 ? i : runStart;
                if (++run == HIDDEN_RUN) {
                    hits.add(RuleHit.of(SafetyRule.INVISIBLE_CHARACTER, runStart));
                }
            } else {
                run = 0;
            }
            i += len;
        }
    }

    /**
     * An ANSI text-style sequence (SGR: ESC [ parameters m, e.g. bold, colours, reset) is what
     * terminals and tool output use for emphasis: formatting, not an injection signal. Other escape
     * sequences (cursor movement, screen clearing, window titles, clipboard writes) stay control
     * characters, and so does concealed text (SGR 8), which hides words from a reader.
     */
    private static final Pattern TEXT_STYLE = Pattern.compile("\\e\\[([0-9;]{0,40})m");

    /** The length of the text-style sequence at {@code i}, or 0 when there is none. */
    private static int textStyleAt(String text, int i) {
        Matcher m = TEXT_STYLE.matcher(text).region(i, Math.min(text.length(), i + 44));
        if (!m.lookingAt()) {
            return 0;
        }
        String[] parameters = m.group(1).split(";");
        for (int p = 0; p < parameters.length; p++) {
            switch (parameters[p]) {
                case "8" -> {
                    return 0;
                }
                // 38/48: a colour follows as 5;index or 2;r;g;b, whose numbers are not styles
                case "38", "48" ->
                        p += p + 1 < parameters.length && parameters[p + 1].equals("2") ? 4 : 2;
                default -> {}
            }
        }
        return m.end() - i;
    }

    private static boolean isControl(int cp) {
        return (cp < 0x20 && cp != '\n' && cp != '\r' && cp != '\t')
                || cp == 0x7F
                || (cp >= 0x80 && cp <= 0x9F);
    }

    /**
     * Normalised view: per code point NFKC, format characters (Cf) dropped, lower case, every
     * whitespace run one space; {@code offsets[i]} is the original index of view char i.
     */
    record View(String text, int[] offsets) {
        static View of(String original) {
            StringBuilder sb = new StringBuilder(original.length());
            int[] map = new int[original.length() * 2 + 4];
            int n = 0;
            boolean lastSpace = false;
            int i = 0;
            while (i < original.length()) {
                int cp = original.codePointAt(i);
                int len = Character.charCount(cp);
                if (SafeText.isTag(cp) && cp >= 0xE0020 && cp <= 0xE007E) {
                    cp -= 0xE0000; // a TAG character spells ASCII invisibly: read what it spells
                } else if (Character.getType(cp) == Character.FORMAT) {
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
                if (cp < 0x80) { // most text: no string per character
                    map = ensure(map, n + 1);
                    sb.append(cp >= 'A' && cp <= 'Z' ? (char) (cp + ('a' - 'A')) : (char) cp);
                    map[n++] = i;
                    lastSpace = false;
                    i += len;
                    continue;
                }
                String s =
                        Confusables.fold(
                                        Normalizer.normalize(
                                                Character.toString(cp), Normalizer.Form.NFKC))
                                .toLowerCase(Locale.ROOT);
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
