package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.LogLines;
import dev.cairn.embeddings.kernels.Int8Linear;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The converted weights kept in a data dir: an encoder on weights read back from the file gives the
 * vectors of a cold parse bit for bit (int8 packs or not) and keeps them when the file is replaced
 * or deleted under it, and a file that is truncated, damaged, made for another model or model file,
 * by another build or in another version is ignored with one log line and rewritten, never served.
 */
class WeightCacheTest {

    @TempDir Path dir;

    /** Queries (fp16 when short, float32 when long) and documents (int8 or float32). */
    static final List<String> QUERIES =
            List.of(
                    "how do I fail over the primary database",
                    "?",
                    "restart the ingress controller when the router pods crash loop ".repeat(6));

    static final List<String> DOCUMENTS =
            List.of(
                    "a",
                    "The etcd cluster lost quorum after two members were drained at once.",
                    "p53 mutations in 45% of tumours (n=1,024; p<0.001) — see Fig. 3B.",
                    "word ".repeat(700));

    @Test
    void anImageFreesItsMemoryWhenClosedNotWhenCollected() {
        // direct buffers left to the collector filled a test JVM's 4 GB of direct memory when
        // servers loaded models one after another: the image frees its memory at close
        WeightImage image = smallImage();
        ByteBuffer w = image.require("w").data();
        assertThat(w.getFloat(4)).isEqualTo(1.5f);
        assertThat(w.alignmentOffset(0, WeightImage.ALIGNMENT)).isZero();
        image.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> w.getFloat(4))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void cachedWeightsGiveTheVectorsOfAColdParseBitForBitWithInt8Packs() {
        Optional<Int8Linear> int8 = Int8Linear.supported();
        assertCachedEqualsCold(BertSpec.BGE_SMALL_EN_V15, int8);
    }

    @Test
    void cachedWeightsGiveTheVectorsOfAColdParseBitForBitInFloat32() {
        assertCachedEqualsCold(BertSpec.ALL_MINILM_L6_V2, Optional.empty());
    }

    private void assertCachedEqualsCold(BertSpec spec, Optional<Int8Linear> int8) {
        List<int[]> cold;
        try (LogLines logs = new LogLines();
                BertEncoder first = load(spec, int8)) {
            cold = vectors(first);
            first.awaitSaved();
            assertThat(logs.lines())
                    .anySatisfy(l -> assertThat(l).contains("weights converted from"))
                    .anySatisfy(l -> assertThat(l).startsWith("model weights saved to"));
        }
        Path file = WeightCacheFile.in(dir, WeightCacheFile.Key.of(spec, int8.isPresent())).file();
        assertThat(file).isNotEmptyFile();
        assertThat(file.getFileName().toString())
                .isEqualTo(
                        "model-weights-"
                                + spec.id()
                                + (int8.isPresent() ? BertEncoder.INT8_ID_SUFFIX : "")
                                + "-"
                                + WeightCacheFile.Key.of(spec, int8.isPresent()).digest()
                                + ".bin");

        try (LogLines logs = new LogLines();
                BertEncoder second = load(spec, int8)) {
            assertThat(logs.lines())
                    .anySatisfy(l -> assertThat(l).contains("weights read from " + file));
            assertThat(second.exactId()).isEqualTo(spec.id() + (int8.isPresent() ? "-int8" : ""));
            assertThat(second.id()).isEqualTo(spec.id());
            List<int[]> cached = vectors(second);
            for (int i = 0; i < cold.size(); i++) {
                assertThat(cached.get(i)).as("vector %d, bits", i).isEqualTo(cold.get(i));
            }
        }
        // and an encoder without any cache, parsed in this test, agrees too
        try (BertEncoder plain = BertEncoder.load(spec, options(int8))) {
            List<int[]> uncached = vectors(plain);
            for (int i = 0; i < cold.size(); i++) {
                assertThat(uncached.get(i)).as("vector %d, bits", i).isEqualTo(cold.get(i));
            }
        }
    }

    @Test
    void anEncoderOnMappedWeightsKeepsItsVectorsWhenTheFileIsReplacedOrDeletedUnderIt()
            throws IOException {
        // the weights are mapped from the per-user file, which another process may rewrite
        // (renamed over it) or prune while this one serves: the mapping keeps the old file
        BertSpec spec = BertSpec.ALL_MINILM_L6_V2;
        try (BertEncoder first = load(spec, Optional.empty())) {
            first.awaitSaved();
        }
        Path file = WeightCacheFile.in(dir, WeightCacheFile.Key.of(spec, false)).file();
        try (LogLines logs = new LogLines();
                BertEncoder mapped = load(spec, Optional.empty())) {
            assertThat(logs.lines())
                    .anySatisfy(l -> assertThat(l).contains("weights read from " + file));
            List<int[]> before = vectors(mapped);
            Path replacement = dir.resolve("replacement.bin");
            Files.write(replacement, new byte[(int) Files.size(file)]);
            Files.move(replacement, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertThat(vectors(mapped)).usingRecursiveComparison().isEqualTo(before);
            Files.delete(file);
            assertThat(vectors(mapped)).usingRecursiveComparison().isEqualTo(before);
        }
    }

    @Test
    void aDamagedFileIsIgnoredWithOneLineAndRewritten() throws IOException {
        BertSpec spec = BertSpec.ALL_MINILM_L6_V2;
        List<int[]> cold;
        try (BertEncoder first = load(spec, Optional.empty())) {
            cold = vectors(first);
        }
        Path file = WeightCacheFile.in(dir, WeightCacheFile.Key.of(spec, false)).file();
        flipByte(file, Files.size(file) / 2);

        try (LogLines logs = new LogLines();
                BertEncoder second = load(spec, Optional.empty())) {
            assertThat(vectors(second)).usingRecursiveComparison().isEqualTo(cold);
            second.awaitSaved();
            assertThat(logs.lines())
                    .filteredOn(l -> l.startsWith("model weights cache"))
                    .singleElement()
                    .asString()
                    .contains(file.toString(), "checksum mismatch", "converting");
            assertThat(logs.lines())
                    .anySatisfy(l -> assertThat(l).contains("weights converted from"));
        }
        assertThat(WeightCacheFile.in(dir, WeightCacheFile.Key.of(spec, false)).load())
                .as("rewritten")
                .isPresent();
    }

    @Test
    void aSavedImageReadsBackAlignedWithItsBytesAndShapes() throws IOException {
        WeightImage image = smallImage();
        WeightCacheFile file = WeightCacheFile.in(dir, key());
        file.save(image);

        assertThat(java.nio.file.Files.getPosixFilePermissions(file.file()))
                .containsExactlyInAnyOrder(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        WeightImage read = file.load().orElseThrow();
        assertThat(read.entries().keySet()).containsExactly("w", "b", "q");
        for (WeightImage.Entry e : image.entries().values()) {
            WeightImage.Entry r = read.require(e.name());
            assertThat(r.type()).isEqualTo(e.type());
            assertThat(r.shape()).isEqualTo(e.shape());
            assertThat(r.data()).isEqualTo(e.data());
            assertThat(r.data().alignmentOffset(0, WeightImage.ALIGNMENT)).isZero();
        }
        assertThat(read.require("w").data().asFloatBuffer().get(4)).isEqualTo(4.5f);
        assertThat(read.require("q").data().get(2)).isEqualTo((byte) -7);
    }

    @Test
    void aTruncatedFileIsIgnored() throws IOException {
        WeightCacheFile file = saved();
        for (long keep : new long[] {Files.size(file.file()) - 1, 100, 10, 0}) {
            try (FileChannel channel = FileChannel.open(file.file(), StandardOpenOption.WRITE)) {
                channel.truncate(keep);
            }
            assertIgnoredWithOneLine(file, "damaged");
        }
    }

    @Test
    void aFlippedByteAnywhereIsIgnored() throws IOException {
        long size = Files.size(saved().file());
        // the magic, the version, the head, a tensor's bytes, the padding, the checksum
        for (long at : new long[] {0, 9, 30, 200, size - 40, size - 1}) {
            WeightCacheFile file = saved();
            flipByte(file.file(), at);
            assertThat(file.load()).as("byte %d flipped", at).isEmpty();
        }
    }

    @Test
    void aFileOfAnotherModelVersionSourceOrBuildIsIgnored() {
        WeightCacheFile.Key key = key();
        List<WeightCacheFile.Key> others =
                List.of(
                        new WeightCacheFile.Key(
                                key.version() + 1, key.model(), key.source(), key.codeStamp()),
                        new WeightCacheFile.Key(
                                key.version(), "other-model", key.source(), key.codeStamp()),
                        new WeightCacheFile.Key(
                                key.version(), key.model(), "other.onnx", key.codeStamp()),
                        new WeightCacheFile.Key(
                                key.version(), key.model(), key.source(), "cairn-2.jar:1:2"));
        List<String> why =
                List.of(
                        "has version " + (key.version() + 1),
                        "holds model other-model",
                        "was converted from other.onnx",
                        "another build");
        Path path = WeightCacheFile.in(dir, key).file();
        for (int i = 0; i < others.size(); i++) {
            // written under the name the real key reads
            WeightCacheFile other = WeightCacheFile.in(dir, others.get(i));
            other.save(smallImage());
            try {
                Files.move(other.file(), path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertIgnoredWithOneLine(WeightCacheFile.in(dir, key), why.get(i));
        }
    }

    @Test
    void int8PacksAndFloat32WeightsLiveInFilesOfTheirOwn() {
        WeightCacheFile plain =
                WeightCacheFile.in(dir, WeightCacheFile.Key.of(BertSpec.BGE_SMALL_EN_V15, false));
        WeightCacheFile int8 =
                WeightCacheFile.in(dir, WeightCacheFile.Key.of(BertSpec.BGE_SMALL_EN_V15, true));
        assertThat(plain.file()).isNotEqualTo(int8.file());
        assertThat(WeightCacheFile.Key.of(BertSpec.BGE_SMALL_EN_V15, false).source())
                .contains("bge-small-en-v1.5.onnx", "crc32 ", "12 heads");
    }

    @Test
    void eachBuildHasAFileOfItsOwnAndOnlyTheThreeMostRecentlyUsedAreKept() throws IOException {
        // another model whose id starts with this one's is not this model's to prune
        WeightCacheFile longer =
                WeightCacheFile.in(
                        dir,
                        new WeightCacheFile.Key(
                                WeightCacheFile.VERSION, "tiny-int8", "tiny.onnx", "old"));
        longer.save(smallImage());
        Files.setLastModifiedTime(longer.file(), java.nio.file.attribute.FileTime.fromMillis(0));
        List<WeightCacheFile> builds = new ArrayList<>();
        for (int build = 1; build <= 6; build++) {
            if (build == 6) {
                // build 3 is used again (a checkout that was not rebuilt): it counts as recent
                assertThat(builds.get(2).load()).isPresent();
            }
            WeightCacheFile file = build(build);
            file.save(smallImage());
            // saved a minute apart, as rebuilds would be
            Files.setLastModifiedTime(
                    file.file(), java.nio.file.attribute.FileTime.fromMillis(build * 60_000L));
            builds.add(file);
        }
        assertThat(builds.stream().map(WeightCacheFile::file).distinct()).hasSize(6);
        assertThat(builds)
                .extracting(f -> Files.exists(f.file()))
                .as("builds 1 to 6: the three most recently used are kept")
                .containsExactly(false, false, true, false, true, true);
        assertThat(longer.file()).exists();
    }

    private WeightCacheFile build(int build) {
        return WeightCacheFile.in(
                dir,
                new WeightCacheFile.Key(
                        WeightCacheFile.VERSION,
                        "tiny",
                        "tiny.onnx (3 bytes)",
                        "cairn.jar:1:" + build));
    }

    @Test
    void writersSavingTheSameFileAtOnceLeaveOneWholeFile() throws Exception {
        WeightCacheFile file = WeightCacheFile.in(dir, key());
        int writers = 4;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            threads.add(
                    Thread.ofPlatform()
                            .start(
                                    () -> {
                                        try {
                                            start.await();
                                        } catch (Exception e) {
                                            throw new IllegalStateException(e);
                                        }
                                        file.save(smallImage());
                                    }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(file.load()).isPresent();
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("no temporary file left")
                    .containsExactly(file.file().getFileName().toString());
        }
    }

    private void assertIgnoredWithOneLine(WeightCacheFile file, String why) {
        try (LogLines logs = new LogLines()) {
            assertThat(file.load()).as(why).isEmpty();
            assertThat(logs.lines())
                    .singleElement()
                    .asString()
                    .startsWith("model weights cache " + file.file())
                    .contains(why)
                    .endsWith("converting the model file again");
        }
    }

    private WeightCacheFile saved() {
        WeightCacheFile file = WeightCacheFile.in(dir, key());
        file.save(smallImage());
        assertThat(file.load()).isPresent();
        return file;
    }

    private static WeightCacheFile.Key key() {
        return new WeightCacheFile.Key(
                WeightCacheFile.VERSION, "tiny", "tiny.onnx (3 bytes)", "classes");
    }

    /** Three tensors of odd sizes, so the file has padding between them. */
    private static WeightImage smallImage() {
        WeightImage image = new WeightImage();
        float[] w = new float[15];
        for (int i = 0; i < w.length; i++) {
            w[i] = i + 0.5f;
        }
        image.putFloats("w", new long[] {3, 5}, w);
        image.putFloats("b", new long[] {5}, new float[] {1, -1, 2, -2, 3});
        image.putBytes("q", new long[] {3}, new byte[] {127, 0, -7});
        return image;
    }

    private BertEncoder load(BertSpec spec, Optional<Int8Linear> int8) {
        return BertEncoder.load(spec, options(int8).withWeightsCacheDir(dir));
    }

    /** Int8 for every pass when {@code int8} is present, else float32 products. */
    private static EncoderOptions options(Optional<Int8Linear> int8) {
        return int8.isPresent() ? TestModels.int8Everywhere() : TestModels.withoutInt8OrBf16();
    }

    /** Every query and document vector, as the bits of its floats. */
    private static List<int[]> vectors(BertEncoder encoder) {
        List<float[]> all = new ArrayList<>(encoder.embedQueries(QUERIES));
        all.addAll(encoder.embedDocuments(DOCUMENTS));
        List<int[]> bits = new ArrayList<>();
        for (float[] v : all) {
            int[] b = new int[v.length];
            for (int i = 0; i < v.length; i++) {
                b[i] = Float.floatToRawIntBits(v[i]);
            }
            bits.add(b);
        }
        return bits;
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (FileChannel channel =
                FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ 0x5A)).rewind();
            channel.write(one, at);
        }
    }

    /** The messages the embeddings module logs at INFO and above meanwhile. */
}
