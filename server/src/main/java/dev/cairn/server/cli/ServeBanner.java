package dev.cairn.server.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code cairn serve} prints once it listens: where, the admin token when this start made one,
 * and examples that work when pasted into a POSIX shell. The token goes in through {@code
 * $CAIRN_TOKEN} inside double quotes, so the shell expands it (single quotes would send the literal
 * text and get a 401).
 */
final class ServeBanner {

    private ServeBanner() {}

    static List<String> lines(
            String url, String storeDescription, Optional<String> generatedToken) {
        return lines(url, storeDescription, generatedToken, Optional.empty());
    }

    /**
     * @param shownToken the admin token this start made, to show (on a terminal)
     * @param tokenFile where this start filed the admin token it made instead of showing it
     */
    static List<String> lines(
            String url,
            String storeDescription,
            Optional<String> shownToken,
            Optional<Path> tokenFile) {
        List<String> lines = new ArrayList<>();
        lines.add("Cairn is listening on " + url + " (" + storeDescription + ")");
        shownToken.ifPresent(
                token -> {
                    lines.add("Admin token (shown once, keep it): " + token);
                    lines.add("  export CAIRN_TOKEN=" + token);
                });
        tokenFile.ifPresent(
                file -> {
                    lines.add(
                            "Admin token written to "
                                    + file
                                    + " (owner-only; store it and delete the file)");
                    lines.add("  export CAIRN_TOKEN=\"$(cat '" + file + "')\"");
                });
        if (shownToken.isEmpty() && tokenFile.isEmpty()) {
            lines.add(
                    "Admin token: the one printed at the first start, or CAIRN_ADMIN_TOKEN"
                            + " (lost it? see the README)");
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
}
