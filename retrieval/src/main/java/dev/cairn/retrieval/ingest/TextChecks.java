package dev.cairn.retrieval.ingest;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Rejects binary content and invalid UTF-8. */
final class TextChecks {

    private TextChecks() {}

    /** Decodes strict UTF-8 (a leading BOM is dropped) and checks the result is text. */
    static String decodeUtf8(byte[] bytes, String what) {
        String text;
        try {
            text =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("invalid UTF-8 in " + what, e);
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        requireText(text, what);
        return text;
    }

    /**
     * Throws when {@code text} holds a NUL or another C0 control character other than tab, line
     * feed, form feed and carriage return: the mark of binary content.
     */
    static void requireText(String text, String what) {
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
            } else if (c < 0x20 && c != '\t' && c != '\r' && c != '\f') {
                throw new IllegalArgumentException(
                        String.format(
                                "binary content in %s: control character U+%04X at line %d",
                                what, (int) c, line));
            }
        }
    }
}
