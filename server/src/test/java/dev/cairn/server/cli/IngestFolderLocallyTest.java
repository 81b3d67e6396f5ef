package dev.cairn.server.cli;

import static dev.cairn.server.cli.IngestFixtures.PAGES;
import static dev.cairn.server.cli.IngestFixtures.hugoSite;
import static dev.cairn.server.cli.IngestFixtures.page;
import static dev.cairn.server.cli.IngestFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.server.cli.IngestFixtures.Outcome;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn ingest DIR} on the embedded store: a file without a body is skipped with a warning
 * and the rest of the folder is stored; a file that cannot be stored fails alone; the summary line
 * counts all four outcomes and a run again embeds nothing.
 */
class IngestFolderLocallyTest {

    @TempDir Path dir;

    @Test
    void filesWithoutABodyAreSkippedWithAWarningAndTheRestOfTheFolderIsStored() throws Exception {
        Path site = hugoSite(dir.resolve("site"));
        Path data = dir.resolve("data");

        Outcome first =
                run("ingest", site.toString(), "--namespace", "ops", "--data", data.toString());

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.err().lines().filter(l -> l.startsWith("cairn: skipped ")))
                .containsExactlyInAnyOrder(
                        "cairn: skipped "
                                + site.resolve("network/_index.md")
                                + ": no content (front matter only, no body)",
                        "cairn: skipped "
                                + site.resolve("storage/_index.md")
                                + ": no content (front matter only, no body)",
                        "cairn: skipped " + site.resolve("notes.txt") + ": no content (empty)");
        assertThat(first.out())
                .containsPattern(
                        "ingested 4 documents \\(\\d+ chunks\\) into ops in [0-9.]+ s"
                                + " \\([0-9.]+ documents/s\\); 0 unchanged, 3 skipped"
                                + " \\(no content: 3\\), 0 failed");
        try (Store store = Store.embedded(data)) {
            assertThat(
                            DocumentRepository.over(store)
                                    .documents("ops", PageRequest.first(100), "")
                                    .items())
                    .extracting(StoredDocument::id)
                    .containsExactlyInAnyOrder(PAGES);
        }

        Outcome again =
                run("ingest", site.toString(), "--namespace", "ops", "--data", data.toString());

        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out())
                .contains("ingested 0 documents (0 chunks) into ops")
                .contains("; 4 unchanged, 3 skipped (no content: 3), 0 failed");
        try (Store store = Store.embedded(data)) {
            assertThat(
                            DocumentRepository.over(store)
                                    .documents("ops", PageRequest.first(100), "")
                                    .items())
                    .extracting(StoredDocument::version)
                    .containsOnly(1L);
        }
    }

    @Test
    void aFileThatCannotBeStoredFailsAloneAndTheExitCodeSaysSo() throws Exception {
        Path site = hugoSite(dir.resolve("site"));
        Path bad =
                page(
                        site,
                        "storage/ledger.md",
                        "---\nentities:\n  - {name: ledger, kind: spaceship}\n---\n# Ledger\n\n"
                                + "The ledger volume is backed up nightly.\n");
        Path data = dir.resolve("data");

        Outcome o = run("ingest", site.toString(), "--namespace", "ops", "--data", data.toString());

        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_FAILURE);
        assertThat(o.err())
                .containsPattern(
                        "cairn: failed to ingest "
                                + java.util.regex.Pattern.quote(bad.toString())
                                + ": .*spaceship");
        assertThat(o.out())
                .contains("ingested 4 documents")
                .contains("3 skipped (no content: 3), 1 failed");
        try (Store store = Store.embedded(data)) {
            assertThat(
                            DocumentRepository.over(store)
                                    .documents("ops", PageRequest.first(100), "")
                                    .items())
                    .extracting(StoredDocument::id)
                    .containsExactlyInAnyOrder(PAGES);
        }
    }
}
