package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.transfer.NamespaceExport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn export --namespace NS --out FILE}: the namespace as one export file ({@code
 * docs/export-format.md}), from the server given, the one that holds the local data dir, or else
 * the local data dir itself. FILE appears whole or not at all.
 */
@Command(
        name = "export",
        description =
                "Write a namespace (documents, memories, conversations, key/value entries) to one"
                        + " JSON Lines file.",
        mixinStandardHelpOptions = true)
final class ExportCommand implements Callable<Integer> {

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to export (required)")
    String namespace;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "FILE",
            description = "file to write (required; replaced when it exists)")
    Path out;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        Path target = out.toAbsolutePath();
        if (target.getParent() != null && !Files.isDirectory(target.getParent())) {
            throw new IllegalArgumentException("no such folder: " + target.getParent());
        }
        RemoteOptions server = local.askedOrRunning(remote);
        if (server != null) {
            server.download("/v1/namespaces/" + namespace + "/export", target);
            System.out.println("exported " + namespace + " to " + target);
            return 0;
        }
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        Map<String, Long> counts;
        try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.ON_FIRST_USE);
                OutputStream o = Files.newOutputStream(partial)) {
            counts = new NamespaceExport(cairn.knowledge(), Clock.systemUTC()).write(namespace, o);
        } catch (RuntimeException | IOException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("exported " + namespace + " to " + target + ": " + counts);
        return 0;
    }
}
