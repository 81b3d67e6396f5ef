package dev.cairn.retrieval.dense;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exact below the threshold, Lucene HNSW above it, over a real embedded store. */
class SizeAwareDenseIndexTest {

    static final int DIMS = 32;
    static final int DOCS = 300;
    static final int CHUNKS_PER_DOC = 4;

    @TempDir Path dir;
    Store store;
    DocumentRepository documents;
    Random random = new Random(7);

    @BeforeEach
    void open() {
        store = Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS));
        documents = DocumentRepository.over(store);
        store.createNamespace("big", "");
        store.createNamespace("small", "");
        for (int d = 0; d < DOCS; d++) {
            documents.replaceDocument("big", doc("d" + d), chunks(CHUNKS_PER_DOC));
        }
        documents.replaceDocument("small", doc("s0"), chunks(3));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void autoSearchesSmallNamespacesExactlyAndLargeOnesWithHnsw() {
        SizeAwareDenseIndex index =
                new SizeAwareDenseIndex(documents, DenseOptions.defaults(), 1000);

        assertThat(index.approximate("small")).isFalse();
        assertThat(index.approximate("big")).isTrue();
        assertThat(new SizeAwareDenseIndex(documents, DenseOptions.exact(), 10).approximate("big"))
                .isFalse();
        assertThat(
                        new SizeAwareDenseIndex(documents, DenseOptions.approximate(50), 1_000_000)
                                .approximate("small"))
                .isTrue();
    }

    @Test
    void hnswFindsWhatTheExactScanFindsWithTheSameSimilarities() {
        SizeAwareDenseIndex exact = new SizeAwareDenseIndex(documents, DenseOptions.exact(), 0);
        SizeAwareDenseIndex hnsw =
                new SizeAwareDenseIndex(documents, DenseOptions.approximate(100), 0);
        int found = 0;
        int wanted = 0;
        for (int q = 0; q < 50; q++) {
            float[] query = unit(random);
            List<DenseHit> truth = exact.search("big", query, 10);
            List<DenseHit> approx = hnsw.search("big", query, 10);
            assertThat(approx).hasSize(10);
            assertThat(approx)
                    .isSortedAccordingTo((a, b) -> Double.compare(b.similarity(), a.similarity()));
            Set<String> truthIds = new HashSet<>();
            truth.forEach(h -> truthIds.add(h.chunkId()));
            for (DenseHit h : approx) {
                if (truthIds.contains(h.chunkId())) {
                    found++;
                    double exactSimilarity =
                            truth.stream()
                                    .filter(t -> t.chunkId().equals(h.chunkId()))
                                    .findFirst()
                                    .orElseThrow()
                                    .similarity();
                    assertThat(h.similarity()).isCloseTo(exactSimilarity, within(1e-5));
                }
            }
            wanted += 10;
        }
        // 1,200 vectors, ef_search 100: HNSW's recall@10 should be all but perfect.
        assertThat(found / (double) wanted).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void replacedAndRemovedDocumentsLeaveTheGraph() {
        SizeAwareDenseIndex hnsw =
                new SizeAwareDenseIndex(documents, DenseOptions.approximate(100), 0);
        float[] target = unit(random);
        hnsw.search("big", target, 5); // loads the namespace

        List<ChunkDraft> replacement = List.of(chunk(0, target));
        documents.replaceDocument("big", doc("d3"), replacement);
        hnsw.replaceDocument("big", "d3", documents.chunks("big", "d3"));
        List<DenseHit> top = hnsw.search("big", target, 3);
        assertThat(top.getFirst().chunkId()).isEqualTo("d3#0");
        assertThat(top.getFirst().similarity()).isCloseTo(1.0, within(1e-5));
        assertThat(hnsw.search("big", target, 50))
                .extracting(DenseHit::chunkId)
                .doesNotContain("d3#1", "d3#2", "d3#3");

        hnsw.removeDocument("big", "d3");
        assertThat(hnsw.search("big", target, 50))
                .extracting(DenseHit::chunkId)
                .noneMatch(id -> id.startsWith("d3#"));

        hnsw.removeNamespace("big");
        store.deleteNamespace("big");
        store.createNamespace("big", "");
        assertThat(hnsw.search("big", target, 5)).isEmpty();
    }

    static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }

    static DocumentDraft doc(String id) {
        return DocumentDraft.of(id, id, DocumentFormat.MARKDOWN, "content of " + id);
    }

    List<ChunkDraft> chunks(int n) {
        List<ChunkDraft> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(chunk(i, unit(random)));
        }
        return out;
    }

    static ChunkDraft chunk(int ordinal, float[] vector) {
        return new ChunkDraft(ordinal, List.of("T"), "text " + ordinal, 2, vector, "test-model");
    }

    static float[] unit(Random random) {
        float[] v = new float[DIMS];
        double norm = 0;
        for (int i = 0; i < DIMS; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < DIMS; i++) {
            v[i] *= inv;
        }
        return v;
    }
}
