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
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cairn ingest PATH... --namespace NS}: Markdown, text and BEIR {@code corpus.jsonl} files
 * or folders, into the local data dir or a server. Files in folders get ids from their path
 * relative to the folder, so two {@code README.md} in different folders stay two documents.
 *
 * <p>One document does not stop a folder: one without a body is skipped with a warning line, one
 * that cannot be read, parsed or stored fails alone, and the summary line counts ingested,
 * unchanged, skipped (with the reasons) and failed documents. The exit code is non-zero only when
 * one failed. Run again (or after an interruption), locally or through a server, it embeds only the
 * documents not already stored from the same input.
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

    @Spec CommandSpec spec;

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
        try (Cairn cairn = local.open(Cairn.EncoderLoading.AT_OPEN)) {
            if (cairn.store().namespace(namespace).isEmpty()) {
                if (!create) {
                    throw new IllegalArgumentException(
                            "namespace '" + namespace + "' does not exist");
                }
                cairn.store().createNamespace(namespace, "");
            }
            KnowledgeBase kb = cairn.knowledge();
            IngestProgress progress =
                    new IngestProgress(documentCount(sources), false, spec.commandLine().getErr());
            try (progress;
                    Entries entries = new Entries(sources)) {
                // a document the ingest would refuse is left out here, so it fails alone
                // instead of failing its batch
                Iterable<ParsedDocument> ready =
                        () -> ready(entries.iterator(), progress, kb::check, stopRequested);
                runWithSummary(
                        progress,
                        namespace,
                        () ->
                                kb.ingestAll(
                                        namespace,
                                        ready,
                                        IngestMode.SKIP_UNCHANGED,
                                        progress::step));
            }
            return exitCode(progress);
        }
    }

    /**
     * What became of the run: 0 when every document was ingested, unchanged or skipped for a reason
     * the summary names; {@link Main#EXIT_FAILURE} when any failed.
     */
    private static int exitCode(IngestProgress progress) {
        return progress.failed() == 0 ? 0 : Main.EXIT_FAILURE;
    }

    /** Set when the run is stopped from outside; no further document is started. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /**
     * How long a stopped run may take to finish what is in flight (a request to the server, or the
     * batches a local ingest has read) so that the summary counts it; past this the process ends
     * and the summary counts what had finished then (a batch in flight is written whole or not at
     * all).
     */
    static final int STOP_WAIT_SECONDS = 10;

    /**
     * Runs the ingest and prints the summary line at the end, also when the run stops early, so the
     * output says what was stored before the failure. Stopped from outside (Ctrl-C, SIGTERM), it
     * starts no further document, lets the one in flight finish, prints the summary and says that a
     * run again goes on where this one stopped.
     */
    private void runWithSummary(IngestProgress progress, String where, Runnable ingest) {
        PrintWriter err = spec.commandLine().getErr();
        CountDownLatch finished = new CountDownLatch(1);
        Thread onStop =
                Thread.ofPlatform()
                        .name("ingest-stop")
                        .unstarted(
                                () -> {
                                    stopRequested.set(true);
                                    boolean done;
                                    try {
                                        done = finished.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                                    } catch (InterruptedException e) {
                                        done = false;
                                    }
                                    if (!done) {
                                        progress.summary(System.out, where);
                                    }
                                    err.println(
                                            "cairn: stopped; the same command again skips what is"
                                                    + " stored and ingests the rest");
                                    err.flush();
                                });
        Runtime.getRuntime().addShutdownHook(onStop);
        try {
            ingest.run();
        } finally {
            progress.close();
            progress.summary(System.out, where);
            System.out.flush();
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onStop);
            } catch (IllegalStateException shuttingDown) {
                // stopped from outside: the hook says so once this run has finished
            }
        }
    }

    /** One document of the sources: ready to ingest, skipped, or failed before it was sent. */
    sealed interface Entry permits Ready, Skipped, Failed {}

    /**
     * A document to ingest; {@code content} is what a server parses (the file whole, front matter
     * and all, or a corpus line's text).
     */
    record Ready(String what, ParsedDocument document, String content) implements Entry {}

    /** Left out on purpose: {@code reason} for the summary, {@code detail} for the warning line. */
    record Skipped(String what, String reason, String detail) implements Entry {}

    /** Could not be read or parsed. */
    record Failed(String what, String reason) implements Entry {}

    /** Why a document without a body is skipped: nothing to embed or retrieve. */
    static final String NO_CONTENT = "no content";

    /** {@code document} as an entry: skipped when it has no body, else ready. */
    static Entry entry(String what, ParsedDocument document, String content) {
        if (document.body().isBlank()) {
            return new Skipped(
                    what, NO_CONTENT, content.isBlank() ? "empty" : "front matter only, no body");
        }
        return new Ready(what, document, content);
    }

    /**
     * The ready documents of {@code entries} until a stop is requested; the others, and the ready
     * ones {@code check} refuses, go to {@code progress} as skipped or failed.
     */
    private static Iterator<ParsedDocument> ready(
            Iterator<Entry> entries,
            IngestProgress progress,
            Consumer<ParsedDocument> check,
            AtomicBoolean stopRequested) {
        return new Iterator<>() {
            private ParsedDocument next;

            @Override
            public boolean hasNext() {
                while (next == null && !stopRequested.get() && entries.hasNext()) {
                    switch (entries.next()) {
                        case Ready r -> {
                            try {
                                check.accept(r.document());
                                next = r.document();
                            } catch (IllegalArgumentException refused) {
                                progress.failed(r.what(), refused.getMessage());
                            }
                        }
                        case Skipped k -> progress.skipped(k.what(), k.reason(), k.detail());
                        case Failed f -> progress.failed(f.what(), f.reason());
                    }
                }
                return next != null;
            }

            @Override
            public ParsedDocument next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ParsedDocument document = next;
                next = null;
                return document;
            }
        };
    }

    /**
     * The entries of every source, read lazily in order, so one ingest batches across files; a BEIR
     * corpus is streamed, closed with this.
     */
    private static final class Entries implements Iterable<Entry>, AutoCloseable {
        private final List<Source> sources;
        private final List<Stream<ParsedDocument>> open = new ArrayList<>();

        Entries(List<Source> sources) {
            this.sources = sources;
        }

        @Override
        public Iterator<Entry> iterator() {
            return sources.stream()
                    .flatMap(
                            source -> {
                                if (!source.beir()) {
                                    return Stream.of(fileEntry(source));
                                }
                                Stream<ParsedDocument> corpus =
                                        BeirCorpusReader.read(source.path());
                                open.add(corpus);
                                return corpus.map(
                                        doc ->
                                                entry(
                                                        source.path() + " document " + doc.id(),
                                                        doc,
                                                        doc.body()));
                            })
                    .iterator();
        }

        @Override
        public void close() {
            open.forEach(Stream::close);
        }
    }

    /** A Markdown or text file as an entry; one that cannot be read or parsed has failed. */
    private static Entry fileEntry(Source source) {
        String what = source.path().toString();
        try {
            return entry(
                    what,
                    DocumentParser.parse(source.path(), source.idFromPath()),
                    Files.readString(source.path()));
        } catch (IOException e) {
            return new Failed(what, "cannot read it: " + e.getMessage());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return new Failed(what, e.getMessage());
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

    /**
     * Statuses that refuse one document for what it is (invalid, too large, refused by write
     * safety): it fails alone and the run goes on. Any other error (no access, namespace gone,
     * server failing) stops the run.
     */
    private static final Set<Integer> DOCUMENT_REFUSED = Set.of(400, 409, 413, 422);

    private int ingestRemote(RemoteOptions remote, List<Source> sources) throws IOException {
        if (remote.getIfExists("/v1/namespaces/" + namespace).isEmpty()) {
            if (!create) {
                throw new IllegalArgumentException(
                        "namespace '" + namespace + "' does not exist at " + remote.server);
            }
            remote.post("/v1/namespaces", Map.of("name", namespace));
            System.out.printf(Locale.ROOT, "created namespace %s%n", namespace);
        }
        IngestProgress progress =
                new IngestProgress(documentCount(sources), false, spec.commandLine().getErr());
        try (progress;
                Entries entries = new Entries(sources)) {
            runWithSummary(
                    progress,
                    namespace + " at " + remote.server,
                    () -> {
                        for (Entry entry : entries) {
                            if (stopRequested.get()) {
                                break;
                            }
                            switch (entry) {
                                case Ready r -> send(remote, r, progress);
                                case Skipped k ->
                                        progress.skipped(k.what(), k.reason(), k.detail());
                                case Failed f -> progress.failed(f.what(), f.reason());
                            }
                        }
                    });
        }
        return exitCode(progress);
    }

    /**
     * Sends one document with {@code skipUnchanged=true}, so the server embeds it only when it is
     * not stored already from the same input: a run again, or after an interruption, sends every
     * document but embeds only what changed or was never stored.
     */
    private void send(RemoteOptions remote, Ready ready, IngestProgress progress) {
        ParsedDocument doc = ready.document();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", doc.id());
        body.put("title", doc.title());
        body.put("format", doc.format().name().toLowerCase(Locale.ROOT));
        body.put("content", ready.content());
        RemoteOptions.Answer answer =
                remote.postForAnswer(
                        "/v1/namespaces/" + namespace + "/documents?skipUnchanged=true", body);
        if (!answer.ok() && DOCUMENT_REFUSED.contains(answer.status())) {
            progress.failed(ready.what(), answer.detail());
            return;
        }
        JsonNode stored;
        try {
            stored = Json.MAPPER.readTree(answer.orThrow());
        } catch (IOException e) {
            throw new UncheckedIOException("the server's answer is not JSON", e);
        }
        progress.step(
                new IngestResult(
                        doc.id(),
                        stored.path("version").asLong(),
                        stored.path("chunks").asInt(),
                        stored.path("unchanged").asBoolean()));
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
