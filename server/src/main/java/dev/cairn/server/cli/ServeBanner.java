package dev.cairn.server.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code cairn serve} prints once it listens: where, where the admin token is, and examples
 * that work when pasted into a POSIX shell. The token goes in through {@code $CAIRN_TOKEN} inside
 * double quotes, so the shell expands it (single quotes would send the literal text and get a 401).
 */
final class ServeBanner {

    private ServeBanner() {}

    /** Where the admin token is, as the banner says it. */
    sealed interface AdminToken {

        /** This start generated the token and shows it (on a terminal). */
        record Shown(String secret) implements AdminToken {}

        /** This start generated the token and wrote it to {@code file} instead of showing it. */
        record Filed(Path file) implements AdminToken {}

        /** The token is configured: {@code CAIRN_ADMIN_TOKEN} or {@code cairn.auth.admin-token}. */
        record Configured() implements AdminToken {}

        /**
         * An earlier start generated the token.
         *
         * @param file the file it was written to, when it is still there
         * @param expected where that start would have written it
         */
        record Earlier(Optional<Path> file, Path expected) implements AdminToken {}
    }

    static List<String> lines(String url, String storeDescription, AdminToken token) {
        List<String> lines = new ArrayList<>();
        lines.add("Cairn is listening on " + url + " (" + storeDescription + ")");
        switch (token) {
            case AdminToken.Shown shown -> {
                lines.add("Admin token (shown once, keep it): " + shown.secret());
                lines.add("  export CAIRN_TOKEN=" + shown.secret());
            }
            case AdminToken.Filed filed -> {
                lines.add(
                        "Admin token written to "
                                + filed.file()
                                + " (owner-only; store it and delete the file)");
                lines.add(exportFrom(filed.file()));
            }
            case AdminToken.Configured configured ->
                    lines.add(
                            "Admin token: the one CAIRN_ADMIN_TOKEN (cairn.auth.admin-token) sets");
            case AdminToken.Earlier earlier -> {
                if (earlier.file().isPresent()) {
                    lines.add(
                            "Admin token: in "
                                    + earlier.file().get()
                                    + ", written at the first start (owner-only; store it and"
                                    + " delete the file)");
                    lines.add(exportFrom(earlier.file().get()));
                } else {
                    lines.add(
                            "Admin token: the one the first start printed or wrote to "
                                    + earlier.expected()
                                    + " (gone now; lost it? see the README)");
                }
            }
        }
        lines.add("Try:");
        lines.add("  curl " + url + "/health");
        lines.add(
                "  curl -H \"Authorization: Bearer $CAIRN_TOKEN\""
                        + " -H 'Content-Type: application/json' -d '{\"name\":\"runbooks\"}' "
                        + url
                        + "/v1/namespaces");
        return lines;
    }

    private static String exportFrom(Path file) {
        return "  export CAIRN_TOKEN=\"$(cat '" + file + "')\"";
    }
}
