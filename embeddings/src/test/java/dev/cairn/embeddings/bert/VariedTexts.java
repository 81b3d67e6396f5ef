package dev.cairn.embeddings.bert;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Test inputs of every awkward kind, handwritten plus generated from a seed. */
final class VariedTexts {

    private VariedTexts() {}

    static final List<String> HANDWRITTEN =
            List.of(
                    "",
                    " ",
                    "\n\t  \r\n",
                    "a",
                    "?",
                    "Hello, world!",
                    "How do vaccines train the immune system?",
                    "UPPER CASE AND lower case And MiXeD",
                    "naïve café résumé façade coöperate",
                    "Привет, как дела? Это тест на кириллице.",
                    "这是一个用于测试的中文句子，包含标点符号。",
                    "日本語のテキストも正しく処理されるべきです。",
                    "한국어 문장도 포함되어 있습니다.",
                    "مرحبا بالعالم، هذا نص عربي للاختبار.",
                    "שלום עולם, זה טקסט בעברית.",
                    "यह हिंदी में एक परीक्षण वाक्य है।",
                    "Ελληνικά: η γρήγορη καφέ αλεπού.",
                    "emoji 🚀🔥👍🏽 and flags 🇩🇪🇯🇵 mixed with text",
                    "public static void main(String[] args) { System.out.println(\"hi\"); }",
                    "def f(x):\n    return [i ** 2 for i in range(x) if i % 2 == 0]\n",
                    "SELECT id, name FROM users WHERE age > 30 ORDER BY name DESC LIMIT 10;",
                    "{\"key\": [1, 2.5e-3, null, true], \"nested\": {\"a\": \"b\"}}",
                    "https://example.com/path?query=1&other=two#fragment",
                    "p53 mutations in 45% of tumours (n=1,024; p<0.001) — see Fig. 3B.",
                    "IL-6/STAT3 signalling ↑ in CD4+ T-cells at 37.5 °C ± 0.2",
                    "x".repeat(3000),
                    "word ".repeat(700),
                    "the quick brown fox jumps over the lazy dog. ".repeat(80),
                    "\u0000\u0001 control \u200b zero-width \u00ad soft hyphen",
                    "tab\tseparated\tvalues\nand\nnew\nlines");

    private static final String[] SYLLABLES = {
        "ka", "to", "ri", "mu", "sen", "gal", "pro", "tein", "cell", "ase", "neu", "ron", "gen",
        "ome", "bio", "chem", "in", "ter", "lo", "qui", "xy", "zo", "ph", "th", "ing", "ed", "al"
    };

    private static final int[][] SCRIPT_RANGES = {
        {0x0041, 0x007A},
        {0x00C0, 0x017F},
        {0x0400, 0x044F},
        {0x0600, 0x064A},
        {0x0900, 0x097F},
        {0x3040, 0x309F},
        {0x4E00, 0x4FFF},
        {0xAC00, 0xAD00},
        {0x1F600, 0x1F64F}
    };

    /** {@code n} texts: the handwritten ones first, then generated from {@code seed}. */
    static List<String> generate(int n, long seed) {
        List<String> out = new ArrayList<>(HANDWRITTEN.subList(0, Math.min(n, HANDWRITTEN.size())));
        Random random = new Random(seed);
        while (out.size() < n) {
            // Long inputs (kind 2) are a tenth of the mix: enough to cover truncation at the
            // limit without dominating the test's run time.
            int kind = random.nextInt(10);
            out.add(
                    switch (kind) {
                        case 0, 8 -> words(random, 1 + random.nextInt(8));
                        case 1, 9 -> words(random, 20 + random.nextInt(200));
                        case 2 -> words(random, 450 + random.nextInt(500));
                        case 3, 5 -> script(random, 5 + random.nextInt(300));
                        case 4, 6 -> code(random);
                        case 7 -> words(random, 1 + random.nextInt(3));
                        default -> throw new AssertionError(kind);
                    });
        }
        return out;
    }

    private static String words(Random random, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                sb.append(random.nextInt(12) == 0 ? ". " : " ");
            }
            int syllables = 1 + random.nextInt(3);
            for (int s = 0; s < syllables; s++) {
                sb.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
            }
            if (random.nextInt(15) == 0) {
                sb.append(random.nextInt(1000));
            }
        }
        return sb.toString();
    }

    private static String script(Random random, int count) {
        int[] range = SCRIPT_RANGES[random.nextInt(SCRIPT_RANGES.length)];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (random.nextInt(6) == 0) {
                sb.append(' ');
            }
            sb.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
        }
        return sb.toString();
    }

    private static String code(Random random) {
        StringBuilder sb = new StringBuilder();
        int lines = 1 + random.nextInt(20);
        for (int i = 0; i < lines; i++) {
            String name = words(random, 1).replace(" ", "");
            sb.append("    ".repeat(random.nextInt(3)))
                    .append(
                            switch (random.nextInt(4)) {
                                case 0 -> "int " + name + " = " + random.nextInt(100) + ";";
                                case 1 -> "if (" + name + " != null) { return " + name + "(); }";
                                case 2 -> "// TODO: " + words(random, 4);
                                default ->
                                        name + ".forEach(x -> x.apply(" + random.nextInt() + "));";
                            })
                    .append('\n');
        }
        return sb.toString();
    }
}
