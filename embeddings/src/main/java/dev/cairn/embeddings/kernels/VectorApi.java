package dev.cairn.embeddings.kernels;

/**
 * Whether the incubating {@code jdk.incubator.vector} module is loaded: the classes written with it
 * ({@link VectorAttention}, {@link VectorRows}, retrieval's ordered dot product) cannot load
 * without it. The launcher adds it for {@code serve}, {@code eval}, {@code ingest} and {@code mcp},
 * and the tests and benchmarks add it; quick local commands do not (it prints a warning), and their
 * passes keep the other code.
 */
public final class VectorApi {

    private static final boolean LOADED =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    private VectorApi() {}

    public static boolean loaded() {
        return LOADED;
    }
}
