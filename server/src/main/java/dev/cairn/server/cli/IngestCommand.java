package dev.cairn.server.cli;

import dev.cairn.retrieval.IngestResult;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.ingest.BeirCorpusReader;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.server.Cairn;
import dev.cairn.server.http.Json;
import dev.cairn.store.Namespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn ingest PATH... --namespace NS}: Markdown, text and BEIR {@code corpus.jsonl} files
 * or folders, into the local data dir or a server. Files in folders get ids from their path
 * relative to the folder, so two {@code README.md} in different folders stay two documents.
 */
@Command(
        name = "ingest",
        description = "Ingest .md, .txt and BEIR corpus.jsonl files or folders.",
        mixinStandardHelpOptions = true)
final class IngestCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "PATH")
    List<Path> paths;

    @Option(names = "--namespace", required = true, paramLabel = "NS")
    String namespace;

    @Option(
            names = "--create",
            description = "create the namespace when it does not exist (default true)",
            negatable = true,
            defaultValue = "true",
            // without it picocli toggles the default: --create would mean false
            fallbackValue = "true")
    boolean create;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        Namespace.requireValidName(namespace);
        List<Source> sources = sources(paths);
        if (sources.isEmpty()) {
            throw new IllegalArgumentException(
                    "no .md, .markdown, .txt or corpus.jsonl files under " + paths);
        }
        if (remote != null && remote.remote()) {
            return ingestRemote(sources);
        }
        try (Cairn cairn = local.open()) {
            if (cairn.store().namespace(namespace).isEmpty()) {
                if (!create) {
                    throw new IllegalArgumentException(
                            "namespace '" + namespace + "' does not exist");
                }
                cairn.store().createNamespace(namespace, "");
            }
            KnowledgeBase kb = cairn.knowledge();
            int[] counts = new int[2];
            try (ProgressBar bar = progressBar(sources)) {
                for (Source source : sources) {
                    if (source.beir()) {
                        try (Stream<ParsedDocument> docs = BeirCorpusReader.read(source.path())) {
                            Iterator<ParsedDocument> it = docs.iterator();
                            kb.ingestAll(namespace, () -> it, r -> count(counts, r));
                        }
                    } else {
                        ParsedDocument doc = parse(source);
                        kb.ingestAll(namespace, List.of(doc), r -> count(counts, r));
                    }
                    bar.step();
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "ingested %d documents (%d chunks) into %s%n",
                    counts[0],
                    counts[1],
                    namespace);
        }
        return 0;
    }

    private int ingestRemote(List<Source> sources) throws IOException {
        if (remote.getIfExists("/v1/namespaces/" + namespace).isEmpty()) {
            if (!create) {
                throw new IllegalArgumentException(
                        "namespace '" + namespace + "' does not exist at " + remote.server);
            }
            remote.post("/v1/namespaces", Map.of("name", namespace));
            System.out.printf(Locale.ROOT, "created namespace %s%n", namespace);
        }
        int documents = 0;
        int chunks = 0;
        try (ProgressBar bar = progressBar(sources)) {
            for (Source source : sources) {
                List<ParsedDocument> docs = new ArrayList<>();
                if (source.beir()) {
                    try (Stream<ParsedDocument> s = BeirCorpusReader.read(source.path())) {
                        s.forEach(docs::add);
                    }
                } else {
                    docs.add(parse(source));
                }
                for (ParsedDocument doc : docs) {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("id", doc.id());
                    body.put("title", doc.title());
                    body.put("format", doc.format().name().toLowerCase(Locale.ROOT));
                    body.put(
                            "content",
                            Files.exists(source.path()) && !source.beir()
                                    ? read(source.path())
                                    : doc.body());
                    String answer = remote.post("/v1/namespaces/" + namespace + "/documents", body);
                    chunks += Json.MAPPER.readTree(answer).path("chunks").asInt();
                    documents++;
                }
                bar.step();
            }
        }
        System.out.printf(
                Locale.ROOT,
                "ingested %d documents (%d chunks) into %s at %s%n",
                documents,
                chunks,
                namespace,
                remote.server);
        return 0;
    }

    private static void count(int[] counts, IngestResult r) {
        counts[0]++;
        counts[1] += r.chunks();
    }

    private static ParsedDocument parse(Source source) {
        return DocumentParser.parse(source.path(), source.idFromPath());
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProgressBar progressBar(List<Source> sources) {
        ProgressBarBuilder builder =
                new ProgressBarBuilder()
                        .setTaskName("ingest")
                        .setInitialMax(sources.size())
                        .setStyle(ProgressBarStyle.ASCII)
                        .continuousUpdate();
        if (System.console() == null) {
            builder.setConsumer(
                    new me.tongfei.progressbar.DelegatingProgressBarConsumer(line -> {}));
        }
        return builder.build();
    }

    /** A file to ingest and the id its path suggests. */
    record Source(Path path, boolean beir, String idFromPath) {}

    static List<Source> sources(List<Path> paths) {
        List<Source> sources = new ArrayList<>();
        for (Path path : paths) {
            if (!Files.exists(path)) {
                throw new IllegalArgumentException("no such file or folder: " + path);
            }
            if (Files.isDirectory(path)) {
                try (Stream<Path> files = Files.walk(path)) {
                    files.filter(Files::isRegularFile)
                            .filter(IngestCommand::ingestible)
                            .sorted()
                            .forEach(f -> sources.add(source(f, path.relativize(f))));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot list " + path, e);
                }
            } else if (ingestible(path)) {
                sources.add(source(path, path.getFileName()));
            } else {
                throw new IllegalArgumentException(
                        "cannot ingest "
                                + path
                                + ": expected .md, .markdown, .txt or corpus.jsonl");
            }
        }
        return sources;
    }

    private static Source source(Path file, Path relative) {
        String name = file.getFileName().toString();
        boolean beir = name.endsWith(".jsonl");
        String id = relative.toString().replace('\\', '/');
        int dot = id.lastIndexOf('.');
        if (dot > id.lastIndexOf('/') + 1) {
            id = id.substring(0, dot);
        }
        // one path segment, so the id fits in /documents/{id}
        return new Source(file, beir, id.replace('/', '.'));
    }

    private static boolean ingestible(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".md")
                || name.endsWith(".markdown")
                || name.endsWith(".txt")
                || name.equals("corpus.jsonl");
    }
}
