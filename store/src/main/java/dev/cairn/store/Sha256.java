package dev.cairn.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The lower-case hex SHA-256 of a text's UTF-8 bytes: a migration's checksum, a document's and a
 * memory's content hash. Stateless, thread-safe.
 */
public final class Sha256 {

    private Sha256() {}

    /** The 64 lower-case hex digits of the SHA-256 of {@code text} in UTF-8. */
    public static String hex(String text) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
