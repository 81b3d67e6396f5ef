package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.retrieval.IngestMode;
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
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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

    @Parameters(
            arity = "1..*",
            paramLabel = "PATH",
            description = "files or folders (read recursively) to ingest")
    List<Path> paths;

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to ingest into (required)")
    String namespace;

    @Option(
            names = "--create",
            description = "create the namespace when it does not exist",
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
            return ingestRemote(remote, sources);
        }
        Optional<RemoteOptions> running = local.runningServer();
        if (running.isPresent()) {
            return ingestRemote(running.get(), sources);
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
            try (IngestProgress progress = new IngestProgress(documentCount(sources), false);
                    Documents documents = new Documents(sources)) {
                kb.ingestAll(namespace, documents, IngestMode.SKIP_UNCHANGED, progress::step);
                progress.close();
                progress.summary(System.out, namespace);
            }
        }
        return 0;
    }

    /**
     * The documents of every source, read lazily in order, so one ingest batches across files; a
     * BEIR corpus is streamed, closed with this.
     */
    private static final class Documents implements Iterable<ParsedDocument>, AutoCloseable {
        private final List<Source> sources;
        private final List<Stream<ParsedDocument>> open = new ArrayList<>();

        Documents(List<Source> sources) {
            this.sources = sources;
        }

        @Override
        public Iterator<ParsedDocument> iterator() {
            return sources.stream()
                    .flatMap(
                            source -> {
                                if (!source.beir()) {
                                    return Stream.of(parse(source));
                                }
                                Stream<ParsedDocument> corpus =
                                        BeirCorpusReader.read(source.path());
                                open.add(corpus);
                                return corpus;
                            })
                    .iterator();
        }

        @Override
        public void close() {
            open.forEach(Stream::close);
        }
    }

    /** Documents the sources hold: one per Markdown or text file, one per corpus line. */
    static long documentCount(List<Source> sources) {
        long count = 0;
        for (Source source : sources) {
            if (source.beir()) {
                try (Stream<String> lines = Files.lines(source.path())) {
                    count += lines.filter(l -> !l.isBlank()).count();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + source.path(), e);
                }
            } else {
                count++;
            }
        }
        return count;
    }

    private int ingestRemote(RemoteOptions remote, List<Source> sources) throws IOException {
        if (remote.getIfExists("/v1/namespaces/" + namespace).isEmpty()) {
            if (!create) {
                throw new IllegalArgumentException(
                        "namespace '" + namespace + "' does not exist at " + remote.server);
            }
            remote.post("/v1/namespaces", Map.of("name", namespace));
            System.out.printf(Locale.ROOT, "created namespace %s%n", namespace);
        }
        try (IngestProgress progress = new IngestProgress(documentCount(sources), false)) {
            for (Source source : sources) {
                if (source.beir()) {
                    try (Stream<ParsedDocument> corpus = BeirCorpusReader.read(source.path())) {
                        for (ParsedDocument doc : (Iterable<ParsedDocument>) corpus::iterator) {
                            progress.step(post(remote, doc, doc.body()));
                        }
                    }
                } else {
                    // the file whole, front matter and all, for the server to parse
                    progress.step(post(remote, parse(source), read(source.path())));
                }
            }
            progress.close();
            progress.summary(System.out, namespace + " at " + remote.server);
        }
        return 0;
    }

    private IngestResult post(RemoteOptions remote, ParsedDocument doc, String content)
            throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", doc.id());
        body.put("title", doc.title());
        body.put("format", doc.format().name().toLowerCase(Locale.ROOT));
        body.put("content", content);
        JsonNode answer =
                Json.MAPPER.readTree(
                        remote.post("/v1/namespaces/" + namespace + "/documents", body));
        return new IngestResult(
                doc.id(), answer.path("version").asLong(), answer.path("chunks").asInt(), false);
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
