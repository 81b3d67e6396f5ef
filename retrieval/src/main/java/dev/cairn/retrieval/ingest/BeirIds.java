package dev.cairn.retrieval.ingest;

/**
 * BEIR document ids as Cairn document ids. A Cairn id is one URL path segment ({@link
 * dev.cairn.store.Identifiers#requireId}); some public BEIR corpora have ids with {@code /}
 * (DBpedia-entity's {@code <dbpedia:AC/DC>}). Such a corpus is not refused: {@code %} and {@code /}
 * are percent-encoded ({@code %25}, {@code %2F}) and an id that is exactly {@code .} or {@code ..}
 * becomes {@code %2E} / {@code %2E%2E}, which maps every BEIR id to a distinct Cairn id and back.
 * Every other id, SciFact's and NFCorpus's among them, is its own Cairn id. Stateless.
 */
public final class BeirIds {

    private BeirIds() {}

    /** The Cairn document id of a BEIR corpus id. */
    public static String documentId(String beirId) {
        if (beirId.equals(".") || beirId.equals("..")) {
            return beirId.replace(".", "%2E");
        }
        if (beirId.indexOf('/') < 0 && beirId.indexOf('%') < 0) {
            return beirId;
        }
        return beirId.replace("%", "%25").replace("/", "%2F");
    }

    /** The BEIR corpus id a Cairn document id was made from ({@link #documentId}'s inverse). */
    public static String beirId(String documentId) {
        if (documentId.indexOf('%') < 0) {
            return documentId;
        }
        StringBuilder out = new StringBuilder(documentId.length());
        for (int i = 0; i < documentId.length(); i++) {
            char c = documentId.charAt(i);
            if (c == '%' && i + 2 < documentId.length()) {
                String code = documentId.substring(i + 1, i + 3);
                switch (code) {
                    case "25" -> out.append('%');
                    case "2F" -> out.append('/');
                    case "2E" -> out.append('.');
                    default -> {
                        out.append(c);
                        continue;
                    }
                }
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether a BEIR id needed mapping to be a Cairn id. */
    public static boolean mapped(String beirId) {
        return !documentId(beirId).equals(beirId);
    }
}
