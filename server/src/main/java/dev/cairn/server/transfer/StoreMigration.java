package dev.cairn.server.transfer;

import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.Store;
import dev.cairn.store.StoredToken;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Moves every namespace of one store into another ({@code cairn migrate}): each through an export
 * file in a work folder, imported into the target (the namespace created there with the source's
 * settings when missing), then counted in both stores ({@link NamespaceCounts}). Resumable: a
 * namespace whose counts already agree in the target is skipped, and one cut off part-way is
 * imported again, which adds no copies ({@link NamespaceImport}). Vectors travel with the records:
 * nothing is embedded again when both sides run the same model. Then the API tokens made through
 * {@code POST /v1/tokens} (hashes only; they belong to no namespace): each added to the target
 * unless it holds it already, and checked there by name and hash. Not thread-safe; run it with no
 * server writing to the source.
 */
public final class StoreMigration {

    /** What happened to one namespace. */
    public record Moved(String namespace, boolean alreadyThere, Map<String, Long> counts) {}

    /**
     * What happened to the API tokens.
     *
     * @param count how many the source holds
     * @param added how many the target did not hold before
     * @param missing names of the source's tokens the target does not hold at the end (it gives the
     *     name to another token)
     */
    public record TokensMoved(int count, int added, List<String> missing) {}

    /**
     * The migration's outcome.
     *
     * @param moved each namespace of the source, in name order
     * @param mismatches namespace to its target counts, for each whose counts disagree at the end
     * @param tokens the API tokens' move
     */
    public record Outcome(
            List<Moved> moved, Map<String, Map<String, Long>> mismatches, TokensMoved tokens) {

        /** Rows of each kind over every namespace of the source. */
        public Map<String, Long> totals() {
            Map<String, Long> totals = new LinkedHashMap<>();
            for (Moved m : moved) {
                m.counts().forEach((k, v) -> totals.merge(k, v, Long::sum));
            }
            return totals;
        }
    }

    private final KnowledgeBase source;
    private final KnowledgeBase target;
    private final Clock clock;
    private final List<StoredToken> tokensBesideTheStore;

    /**
     * @param tokensBesideTheStore tokens of the source not yet in its store (a {@code tokens.json}
     *     no server of this version has moved into it), copied with those that are
     */
    public StoreMigration(
            KnowledgeBase source,
            KnowledgeBase target,
            Clock clock,
            List<StoredToken> tokensBesideTheStore) {
        this.source = source;
        this.target = target;
        this.clock = clock;
        this.tokensBesideTheStore = List.copyOf(tokensBesideTheStore);
    }

    /**
     * Migrates every namespace, telling {@code progress} one line per namespace.
     *
     * @param workDir an existing folder for the export files (each deleted once imported)
     */
    public Outcome run(Path workDir, Consumer<String> progress) {
        Store from = source.store();
        Store to = target.store();
        List<Moved> moved = new ArrayList<>();
        Map<String, Map<String, Long>> mismatches = new LinkedHashMap<>();
        for (Namespace ns : allNamespaces(from)) {
            String name = ns.name();
            long started = System.nanoTime();
            Map<String, Long> expected = NamespaceCounts.of(from, name, clock.instant());
            if (to.namespace(name).isPresent()
                    && NamespaceCounts.of(to, name, clock.instant()).equals(expected)) {
                moved.add(new Moved(name, true, expected));
                progress.accept(name + ": already there " + expected);
                continue;
            }
            Path file = workDir.resolve(name + ".cairn-export.jsonl");
            try {
                try (OutputStream out = Files.newOutputStream(file)) {
                    new NamespaceExport(source, clock).write(name, out);
                }
                if (to.namespace(name).isEmpty()) {
                    to.createNamespace(name, ns.description(), ns.recallScope());
                }
                new NamespaceImport(target).read(file, name);
                Files.delete(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            Map<String, Long> found = NamespaceCounts.of(to, name, clock.instant());
            if (!found.equals(expected)) {
                mismatches.put(name, found);
            }
            moved.add(new Moved(name, false, expected));
            progress.accept(
                    String.format(
                            "%s: %s in %.1f s%s",
                            name,
                            expected,
                            (System.nanoTime() - started) / 1e9,
                            found.equals(expected) ? "" : "; the target holds " + found));
        }
        TokensMoved tokens = moveTokens(from, to);
        progress.accept(
                "api tokens: "
                        + tokens.count()
                        + " ("
                        + tokens.added()
                        + " added)"
                        + (tokens.missing().isEmpty()
                                ? ""
                                : "; the target gives these names to other tokens: "
                                        + String.join(", ", tokens.missing())));
        return new Outcome(List.copyOf(moved), mismatches, tokens);
    }

    private TokensMoved moveTokens(Store from, Store to) {
        Map<String, StoredToken> byName = new TreeMap<>();
        tokensBesideTheStore.forEach(t -> byName.put(t.name(), t));
        from.tokens().all().forEach(t -> byName.put(t.name(), t)); // the store's over the file's
        int added = to.tokens().insertMissing(byName.values());
        Map<String, String> there = new HashMap<>();
        to.tokens().all().forEach(t -> there.put(t.name(), t.sha256()));
        List<String> missing =
                byName.values().stream()
                        .filter(t -> !t.sha256().equals(there.get(t.name())))
                        .map(StoredToken::name)
                        .toList();
        return new TokensMoved(byName.size(), added, missing);
    }

    private static List<Namespace> allNamespaces(Store store) {
        List<Namespace> all = new ArrayList<>();
        Page.forEachItem(100, store::namespaces, all::add);
        return all;
    }
}
