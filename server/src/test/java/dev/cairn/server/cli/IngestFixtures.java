package dev.cairn.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A runbook folder as operators have them (a Hugo site: section {@code _index.md} files with front
 * matter only, an empty notes file next to real pages) and {@code cairn ingest} run in-process.
 */
final class IngestFixtures {

    private IngestFixtures() {}

    /** What a command printed and answered. */
    record Outcome(int exit, String out, String err) {}

    /** Runs the command line with stdout and the command line's stderr captured. */
    static synchronized Outcome run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int exit = Main.run(new PrintWriter(err, true), args);
            return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(previous);
        }
    }

    /** The pages of {@link #hugoSite}, by the id a folder ingest gives them. */
    static final String[] PAGES = {
        "storage.disk-pressure", "storage.volume-resize", "network.dns-timeouts", "network.egress"
    };

    /**
     * Writes four pages (two sections), each section's {@code _index.md} with front matter only,
     * and an empty {@code notes.txt}: 4 documents to store and 3 without a body.
     */
    static Path hugoSite(Path root) throws IOException {
        page(root, "storage/_index.md", "---\ntitle: Storage\nweight: 10\n---\n");
        page(
                root,
                "storage/disk-pressure.md",
                "# Disk pressure on a node\n\nFree space under 10% evicts pods. Prune unused"
                        + " images with crictl rmi --prune, then check the kubelet's eviction"
                        + " thresholds.\n");
        page(
                root,
                "storage/volume-resize.md",
                "---\ntitle: Resize a persistent volume\ntags: [storage]\n---\n# Resize\n\n"
                        + "Edit the claim's requested size; the storage class must allow volume"
                        + " expansion. The file system grows when the pod restarts.\n");
        page(root, "network/_index.md", "---\ntitle: Network\n---\n\n");
        page(
                root,
                "network/dns-timeouts.md",
                "# DNS timeouts\n\nLookups that time out after 5 s usually mean a conntrack race;"
                        + " set single-request-reopen in the pod's resolv.conf options.\n");
        page(
                root,
                "network/egress.md",
                "# Egress blocked\n\nAn egress firewall denies the destination: list the"
                        + " EgressFirewall objects of the project and add an allow rule.\n");
        page(root, "notes.txt", "");
        return root;
    }

    static Path page(Path root, String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
