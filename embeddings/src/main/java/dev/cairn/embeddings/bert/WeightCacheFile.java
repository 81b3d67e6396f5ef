package dev.cairn.embeddings.bert;

import dev.cairn.embeddings.AtomicReplace;
import dev.cairn.embeddings.CodeStamp;
import dev.cairn.embeddings.kernels.Int8Linear;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A model's converted weights ({@link WeightImage}) kept in a file, so a restart reads them instead
 * of parsing the ONNX file and converting it again (seconds on a loaded machine; reading the file
 * is a fraction of one).
 *
 * <p>Layout: magic {@code CAIRNMWI}, int32 {@link #VERSION}, int32 length of the head, then the
 * head: the {@link Key}'s model, source and code stamp, the byte order, the tensor count and per
 * tensor its name, type, rank, dimensions and offset into the data; zeros up to the next {@value
 * WeightImage#ALIGNMENT}-byte boundary; the data, every tensor on such a boundary; last an int64
 * CRC-32C of every byte before it. The data is mapped read-only as one aligned buffer and the
 * tensors are slices of it: no per-value work, no copy, and one copy of the pages in memory for
 * every process on the machine that loads the model.
 *
 * <p>Trusted only when all of these hold: the checksum matches (not truncated or damaged), the
 * version is this one, and it was made for this model id (with or without the int8 packs), from
 * this model file (its name, size and CRC in its jar: its content) by this build of Cairn.
 * Otherwise it is ignored with one log line, the weights are converted again and the file is
 * rewritten, so a wrong file is never served and costs one cold load.
 *
 * <p>The files live in one directory per user ({@code EmbeddingModels.weightCacheDir()}), shared by
 * every data dir and process; each is named by its model and {@link Key#digest}, so builds do not
 * overwrite each other's, and only the {@value #KEPT_PER_MODEL} most recently used of a model are
 * kept. Written to a temporary file of the writing process and renamed over the old one, so a
 * reader sees a whole file or none and two processes converting at once do not corrupt each other.
 * Not forced to disk: a file torn by a crash fails its checksum and is rebuilt, and forcing 150 MB
 * on a busy disk could take longer than the conversion it saves. Stateless apart from the path;
 * thread-safe.
 *
 * <p>Why about 520 lines: the file's format (header, tensors, int8 packs, checksum), its writer,
 * its reader and the trust checks above must agree byte for byte, so they are kept together.
 */
final class WeightCacheFile {

    private static final System.Logger LOG = System.getLogger(WeightCacheFile.class.getName());

    /**
     * Version of the layout above and of the conversion ({@link BertWeights#convert}, {@link
     * Int8Linear#quantise}): change it whenever either changes, so old files are converted again.
     */
    static final int VERSION = 1;

    private static final byte[] MAGIC = "CAIRNMWI".getBytes(StandardCharsets.US_ASCII);

    /** Magic, version, head length. */
    private static final int PREAMBLE_BYTES = MAGIC.length + 2 * Integer.BYTES;

    /** Largest head accepted: a few hundred tensor names, with room to spare. */
    private static final int MAX_HEAD_BYTES = 1 << 20;

    private static final int MAX_RANK = 8;

    /**
     * What makes a file's weights the right ones.
     *
     * @param version layout and conversion version
     * @param model the model id, with {@value BertEncoder#INT8_ID_SUFFIX} when it has the int8
     *     packs (the int8 encoder's exact id)
     * @param source the model file and the conversion's inputs besides it (its head count)
     * @param codeStamp the build of Cairn that converted it
     */
    record Key(int version, String model, String source, String codeStamp) {
        Key {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(codeStamp, "codeStamp");
        }

        /**
         * The key of {@code spec}'s weights converted by this build, with or without int8 packs.
         */
        static Key of(BertSpec spec, boolean int8) {
            return new Key(
                    VERSION,
                    spec.id() + (int8 ? BertEncoder.INT8_ID_SUFFIX : ""),
                    modelFile(spec.onnxResource()) + ", " + spec.heads() + " heads",
                    CODE_STAMP);
        }

        /**
         * Twelve hex digits of a SHA-256 of everything but the model id: files of other builds or
         * model files sit beside this one under other names instead of replacing it, so two builds
         * in use on one machine (two checkouts) do not convert over each other's file.
         */
        String digest() {
            try {
                byte[] hash =
                        MessageDigest.getInstance("SHA-256")
                                .digest(
                                        (version + "\n" + source + "\n" + codeStamp)
                                                .getBytes(StandardCharsets.UTF_8));
                return HexFormat.of().formatHex(hash, 0, 6);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 missing from the JDK", e);
            }
        }
    }

    /** Every file's name starts so; the model id and the key's digest follow. */
    static final String PREFIX = "model-weights-";

    /**
     * Files of one model kept in a directory, the most recently used first; older ones (other
     * builds of Cairn, other model files) are deleted when a new one is saved. Three: the build in
     * use and two more checkouts or versions used alongside it.
     */
    static final int KEPT_PER_MODEL = 3;

    private final Path file;
    private final Key key;

    private WeightCacheFile(Path file, Key key) {
        this.file = file;
        this.key = key;
    }

    /**
     * The file for {@code key} in {@code dir}: {@code model-weights-<model id>-<digest>.bin} (see
     * {@link Key#digest}).
     */
    static WeightCacheFile in(Path dir, Key key) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(key, "key");
        return new WeightCacheFile(
                dir.resolve(PREFIX + key.model() + "-" + key.digest() + ".bin"), key);
    }

    Path file() {
        return file;
    }

    /**
     * The weights, when the file is there and to be trusted (see the class comment); logs one line
     * when there is a file that is not.
     */
    Optional<WeightImage> load() {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            Optional<WeightImage> image = check(channel);
            if (image.isPresent()) {
                markUsed();
            }
            return image;
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            // whatever a damaged file trips over, the weights are converted again
            return ignored(
                    "is damaged or unreadable: " + (e.getMessage() == null ? e : e.getMessage()),
                    Level.WARNING);
        }
    }

    private Optional<WeightImage> check(FileChannel channel) throws IOException {
        long size = channel.size();
        if (size < PREAMBLE_BYTES + Long.BYTES) {
            throw new IllegalArgumentException("only " + size + " bytes");
        }
        ByteBuffer preamble = readFully(channel, 0, ByteBuffer.allocate(PREAMBLE_BYTES));
        byte[] magic = new byte[MAGIC.length];
        preamble.get(0, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IllegalArgumentException("not a model weights file");
        }
        int version = preamble.getInt(MAGIC.length);
        if (version != key.version()) {
            return ignored(
                    "has version " + version + ", this build reads " + key.version(), Level.INFO);
        }
        int headBytes = preamble.getInt(MAGIC.length + Integer.BYTES);
        long dataStart = align(PREAMBLE_BYTES + (long) headBytes);
        if (headBytes < 0 || headBytes > MAX_HEAD_BYTES || dataStart + Long.BYTES > size) {
            throw new IllegalArgumentException(
                    "head of " + headBytes + " bytes in a file of " + size + " bytes");
        }
        ByteBuffer head =
                readFully(
                        channel,
                        PREAMBLE_BYTES,
                        ByteBuffer.allocate((int) (dataStart - PREAMBLE_BYTES)));
        DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(head.array(), 0, headBytes));
        String model = in.readUTF();
        String source = in.readUTF();
        String stamp = in.readUTF();
        if (!model.equals(key.model())) {
            return ignored("holds model " + model + ", not " + key.model(), Level.INFO);
        }
        if (!source.equals(key.source())) {
            return ignored("was converted from " + source + ", not " + key.source(), Level.INFO);
        }
        if (!stamp.equals(key.codeStamp())) {
            return ignored("was converted by another build of Cairn", Level.INFO);
        }
        String order = in.readUTF();
        if (!order.equals(ByteOrder.nativeOrder().toString())) {
            return ignored("is in byte order " + order, Level.INFO);
        }

        long dataBytes = size - Long.BYTES - dataStart;
        WeightImage image = new WeightImage();
        try {
            return Optional.of(read(channel, image, preamble, head, in, dataStart, dataBytes));
        } catch (IOException | RuntimeException e) {
            image.close();
            throw e;
        }
    }

    /** The tensors of a file whose head was checked, read into {@code image}. */
    private static WeightImage read(
            FileChannel channel,
            WeightImage image,
            ByteBuffer preamble,
            ByteBuffer head,
            DataInputStream in,
            long dataStart,
            long dataBytes)
            throws IOException {
        long size = channel.size();
        ByteBuffer data = image.map(channel, dataStart, dataBytes);
        ByteBuffer trailer = readFully(channel, size - Long.BYTES, ByteBuffer.allocate(Long.BYTES));
        CRC32C crc = new CRC32C();
        crc.update(preamble.rewind());
        crc.update(head.rewind());
        crc.update(data.duplicate());
        if (crc.getValue() != trailer.getLong(0)) {
            throw new IllegalArgumentException("checksum mismatch");
        }

        int count = in.readInt();
        long end = 0;
        for (int i = 0; i < count; i++) {
            String name = in.readUTF();
            int type = in.readUnsignedByte();
            int rank = in.readUnsignedByte();
            if (type >= WeightImage.Type.values().length || rank > MAX_RANK) {
                throw new IllegalArgumentException("tensor " + name + ": type " + type);
            }
            long[] shape = new long[rank];
            for (int d = 0; d < rank; d++) {
                shape[d] = in.readLong();
            }
            long offset = in.readLong();
            WeightImage.Type t = WeightImage.Type.values()[type];
            long bytes = WeightImage.elements(shape) * t.bytes;
            if (offset < end || offset % WeightImage.ALIGNMENT != 0 || offset + bytes > dataBytes) {
                throw new IllegalArgumentException(
                        "tensor " + name + " at " + offset + " (" + bytes + " bytes)");
            }
            end = offset + bytes;
            image.put(new WeightImage.Entry(name, t, shape, data.slice((int) offset, (int) bytes)));
        }
        if (in.available() != 0) {
            throw new IllegalArgumentException(in.available() + " bytes after the tensor table");
        }
        return image;
    }

    private Optional<WeightImage> ignored(String why, Level level) {
        LOG.log(level, "model weights cache {0} {1}; converting the model file again", file, why);
        return Optional.empty();
    }

    /**
     * Writes {@code image} (replacing the previous file once it is whole).
     *
     * @throws UncheckedIOException when it cannot be written (the previous file stays)
     */
    void save(WeightImage image) {
        Path tmp = null;
        try {
            Path dir = Files.createDirectories(file.toAbsolutePath().getParent());
            // a file of its own per writer: two processes (or encoders) that convert at once each
            // write a whole file, and the later rename wins with the same content
            tmp = createOwnerOnly(dir, file.getFileName() + ".");
            List<ByteBuffer> parts = layout(image);
            CRC32C crc = new CRC32C();
            for (ByteBuffer part : parts) {
                crc.update(part.duplicate());
            }
            parts.add(ByteBuffer.allocate(Long.BYTES).putLong(0, crc.getValue()));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer[] all = parts.toArray(ByteBuffer[]::new);
                long total = 0;
                for (ByteBuffer b : all) {
                    total += b.remaining();
                }
                for (long written = 0; written < total; ) {
                    written += channel.write(all);
                }
            }
            AtomicReplace.move(tmp, file);
            pruneOthers();
        } catch (IOException e) {
            try {
                if (tmp != null) {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot write the model weights cache " + file, e);
        }
    }

    /**
     * Dates the file as used now, so that {@link #pruneOthers} in another process keeps it. Best
     * effort: a file that cannot be touched is still read.
     */
    private void markUsed() {
        try {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException | RuntimeException e) {
            // read-only cache: the file is used all the same
        }
    }

    /**
     * Deletes this model's files beyond the {@value #KEPT_PER_MODEL} most recently used (this one
     * among them), so upgrades and rebuilds do not pile up 150 MB files. Best effort.
     */
    void pruneOthers() {
        // not a model whose id extends this one's (bge-small-en-v1.5 and bge-small-en-v1.5-int8)
        Pattern sameModel =
                Pattern.compile(Pattern.quote(PREFIX + key.model() + "-") + "[0-9a-f]{12}\\.bin");
        Path dir = file.toAbsolutePath().getParent();
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> mine =
                    files.filter(f -> sameModel.matcher(f.getFileName().toString()).matches())
                            .sorted(Comparator.comparing(WeightCacheFile::lastModified).reversed())
                            .toList();
            for (Path old : mine.subList(Math.min(KEPT_PER_MODEL, mine.size()), mine.size())) {
                if (!old.getFileName().equals(file.getFileName())) {
                    Files.deleteIfExists(old);
                    LOG.log(Level.INFO, "deleted model weights {0}, unused for longest", old);
                }
            }
            deleteAbandoned(dir);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "model weights in {0} not pruned: {1}", dir, e.getMessage());
        }
    }

    /** Deletes temporary files of this model that writers which died left behind. */
    private void deleteAbandoned(Path dir) throws IOException {
        String prefix = file.getFileName() + ".";
        FileTime before = FileTime.from(Instant.now().minus(ABANDONED_AFTER));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path tmp :
                    files.filter(
                                    f ->
                                            f.getFileName().toString().startsWith(prefix)
                                                    && f.getFileName()
                                                            .toString()
                                                            .endsWith(TMP_SUFFIX)
                                                    && lastModified(f).compareTo(before) < 0)
                            .toList()) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static FileTime lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    /** The file's bytes before the checksum, as buffers: preamble and head, then each tensor. */
    private List<ByteBuffer> layout(WeightImage image) throws IOException {
        ByteArrayOutputStream headBytes = new ByteArrayOutputStream();
        DataOutputStream head = new DataOutputStream(headBytes);
        head.writeUTF(key.model());
        head.writeUTF(key.source());
        head.writeUTF(key.codeStamp());
        head.writeUTF(ByteOrder.nativeOrder().toString());
        head.writeInt(image.entries().size());
        List<ByteBuffer> data = new ArrayList<>();
        long offset = 0;
        for (WeightImage.Entry e : image.entries().values()) {
            head.writeUTF(e.name());
            head.writeByte(e.type().ordinal());
            head.writeByte(e.shape().length);
            for (long d : e.shape()) {
                head.writeLong(d);
            }
            long start = align(offset);
            head.writeLong(start);
            if (start > offset) {
                data.add(ByteBuffer.allocate((int) (start - offset)));
            }
            data.add(e.data());
            offset = start + e.bytes();
        }
        head.flush();
        int headLength = headBytes.size();
        ByteBuffer start =
                ByteBuffer.allocate((int) align(PREAMBLE_BYTES + (long) headLength))
                        .put(MAGIC)
                        .putInt(key.version())
                        .putInt(headLength)
                        .put(headBytes.toByteArray())
                        .rewind();
        List<ByteBuffer> parts = new ArrayList<>();
        parts.add(start);
        parts.addAll(data);
        return parts;
    }

    /** A new temporary file in {@code dir} readable by the owner only. */
    private static Path createOwnerOnly(Path dir, String prefix) throws IOException {
        try {
            return Files.createTempFile(
                    dir,
                    prefix,
                    TMP_SUFFIX,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            return Files.createTempFile(dir, prefix, TMP_SUFFIX);
        }
    }

    private static final String TMP_SUFFIX = ".tmp";

    /** A temporary file this old was left by a writer that died (a write takes seconds). */
    static final Duration ABANDONED_AFTER = Duration.ofHours(1);

    private static long align(long offset) {
        long a = WeightImage.ALIGNMENT;
        return (offset + a - 1) / a * a;
    }

    private static ByteBuffer readFully(FileChannel channel, long position, ByteBuffer into)
            throws IOException {
        while (into.hasRemaining()) {
            int n = channel.read(into, position + into.position());
            if (n < 0) {
                throw new EOFException("file ends at " + (position + into.position()));
            }
        }
        return into.flip();
    }

    /**
     * The model file as its jar describes it: resource name, jar, uncompressed size and CRC-32 (a
     * hash of its content that costs nothing to read); name, size and modification time when it is
     * a plain file.
     */
    static String modelFile(String resource) {
        URL url = WeightCacheFile.class.getClassLoader().getResource(resource);
        if (url == null) {
            return resource + " (missing)";
        }
        try {
            if (url.openConnection() instanceof JarURLConnection jar) {
                JarEntry entry = jar.getJarEntry();
                return resource
                        + " in "
                        + Path.of(jar.getJarFileURL().getPath()).getFileName()
                        + " ("
                        + entry.getSize()
                        + " bytes, crc32 "
                        + Long.toHexString(entry.getCrc())
                        + ")";
            }
            Path path = Path.of(url.toURI());
            return resource
                    + " ("
                    + Files.size(path)
                    + " bytes, modified "
                    + Files.getLastModifiedTime(path).toMillis()
                    + ")";
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return resource + " (" + url + ")";
        }
    }

    /**
     * The build that converts: weights converted by other code are not trusted after an upgrade;
     * from class directories (a development build or a test) {@link #VERSION} alone tells
     * conversions apart.
     */
    static final String CODE_STAMP = CodeStamp.of(WeightCacheFile.class);
}
