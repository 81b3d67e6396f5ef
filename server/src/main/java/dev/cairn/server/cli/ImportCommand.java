package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.http.Json;
import dev.cairn.server.transfer.NamespaceImport;
import dev.cairn.store.Namespace;
import dev.cairn.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn import FILE --namespace NS}: reads an export file into a namespace (created with the
 * exported namespace's description and recall scope when missing, and removed again when the file
 * is refused), through the server given, the one that holds the local data dir, or else the local
 * data dir itself. A malformed or truncated file is refused with its line before anything is
 * written; running it again over the same file adds no copies.
 */
@Command(
        name = "import",
        description =
                "Read an export file into a namespace (checked whole first; safe to run again).",
        mixinStandardHelpOptions = true)
final class ImportCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "export file to read")
    Path file;

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to import into (required; created when missing)")
    String namespace;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        Namespace.requireValidName(namespace);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such file: " + file);
        }
        NamespaceImport.Source source = NamespaceImport.source(file);
        RemoteOptions server = local.askedOrRunning(remote);
        String report;
        if (server != null) {
            String path = "/v1/namespaces/" + namespace;
            boolean created = server.getIfExists(path).isEmpty();
            if (created) {
                server.post("/v1/namespaces", namespaceBody(source));
            }
            try {
                report = server.upload(path + "/import", file, "application/x-ndjson");
            } catch (RuntimeException refused) {
                if (created) {
                    server.delete(path); // the file was refused: leave no empty namespace behind
                }
                throw refused;
            }
        } else {
            try (Cairn cairn = local.open(Cairn.EncoderLoading.ON_FIRST_USE)) {
                Store store = cairn.store();
                boolean created = store.namespace(namespace).isEmpty();
                if (created) {
                    store.createNamespace(namespace, source.description(), source.recallScope());
                }
                try {
                    report =
                            Json.MAPPER.writeValueAsString(
                                    new NamespaceImport(cairn.knowledge()).read(file, namespace));
                } catch (RuntimeException refused) {
                    if (created) {
                        store.deleteNamespace(namespace);
                    }
                    throw refused;
                }
            }
        }
        System.out.println("imported " + file + " into " + namespace + ": " + report);
        return 0;
    }

    /** The body that creates the namespace with the exported one's settings. */
    private Map<String, String> namespaceBody(NamespaceImport.Source source) {
        return Map.of(
                "name",
                namespace,
                "description",
                source.description(),
                "recallScope",
                source.recallScope().name().toLowerCase(Locale.ROOT));
    }
}
