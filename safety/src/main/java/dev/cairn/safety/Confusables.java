package dev.cairn.safety;

/**
 * Folds the Cyrillic and Greek letters that look like Latin ones onto those Latin letters (a small
 * subset of Unicode's confusables, the letters of "ignore previous instructions", "system",
 * "password" and the like), so "іgnоrе" written with Cyrillic і, о, е matches the rules. Only the
 * matching view is folded; stored text keeps its letters.
 */
final class Confusables {

    private static final String FROM =
            "аеорсухіјѕԁһӏԛԝвмнткАЕОРСУХІЈЅВМНТК" + "αοιντκρεχυΑΒΕΗΙΚΜΝΟΡΤΧΥΖ";
    private static final String TO =
            "aeopcyxijsdhlqwbmhtkaeopcyxijsbmhtk" + "aoivtkpexuabehikmnoptxyz";

    private Confusables() {}

    /** {@code s} with look-alike letters replaced by their Latin twins (lower case). */
    static String fold(String s) {
        return fold(s, false);
    }

    /**
     * {@code s} with look-alike letters replaced by their Latin twins in the same case ("АКIА" with
     * Cyrillic А and К reads "AKIA"), one char for one char, so positions stay valid in {@code s}.
     */
    static String toLatin(String s) {
        return fold(s, true);
    }

    private static String fold(String s, boolean keepCase) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int k = FROM.indexOf(c);
            if (k >= 0) {
                if (out == null) {
                    out = new StringBuilder(s.length()).append(s, 0, i);
                }
                char latin = TO.charAt(k);
                out.append(
                        keepCase && Character.isUpperCase(c)
                                ? Character.toUpperCase(latin)
                                : latin);
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }
}
