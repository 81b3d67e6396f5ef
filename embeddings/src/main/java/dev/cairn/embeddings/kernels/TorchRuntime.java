package dev.cairn.embeddings.kernels;

import ai.djl.engine.Engine;
import ai.djl.engine.EngineException;
import ai.djl.pytorch.jni.JniUtils;
import java.lang.System.Logger.Level;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts DJL's PyTorch engine once, offline, from the native library jar on the classpath.
 *
 * <p>How the native library is found: DJL's {@code ai.djl.pytorch.jni.LibUtils} looks for {@code
 * native/lib/pytorch.properties} on the classpath. The {@code
 * ai.djl.pytorch:pytorch-native-cpu:<version>:linux-x86_64} jar carries that file (listing {@code
 * libtorch_cpu.so}, {@code libc10.so}, ...) next to the libraries themselves, so DJL copies them to
 * {@code $DJL_CACHE_DIR/pytorch/<version>-cpu-linux-x86_64/} (default {@code ~/.djl.ai}) and loads
 * them from there; the JNI glue {@code libdjl_torch.so} comes the same way from the {@code
 * pytorch-jni} jar ({@code jnilib/linux-x86_64/cpu/}). Only when the classpath has no native jar
 * does DJL try to download, which {@code ai.djl.offline=true} forbids: we set that property before
 * the engine class loads (unless the user already chose) and check for the properties file first,
 * so a missing jar fails at once with a message naming the artifact.
 *
 * <p>Thread-safe: {@link #engine()} initialises once under the class lock; {@link
 * #onInferenceThread} serialises forward passes on one thread.
 */
public final class TorchRuntime {

    private static final System.Logger LOG = System.getLogger(TorchRuntime.class.getName());

    /** The classpath resource that DJL's PyTorch loader reads to find bundled natives. */
    static final String NATIVE_PROPERTIES = "native/lib/pytorch.properties";

    /** The Maven coordinates that provide {@link #NATIVE_PROPERTIES} on Linux x86-64. */
    static final String NATIVE_ARTIFACT = "ai.djl.pytorch:pytorch-native-cpu:2.7.1:linux-x86_64";

    /** System property DJL also reads: PyTorch intra-op threads. */
    static final String THREADS_PROPERTY = "ai.djl.pytorch.num_threads";

    /** Intra-op threads unless {@value #THREADS_PROPERTY} says otherwise: one per core. */
    static final int DEFAULT_THREADS = Runtime.getRuntime().availableProcessors();

    private static volatile Engine engine;

    /**
     * Every forward pass runs on this one platform thread. PyTorch's OpenMP pool belongs to the OS
     * thread that calls it: passes made from virtual threads ran on whichever carrier was free,
     * each carrier with its own pool of spinning workers competing for the same two cores, and a
     * query took 45 ms in the server against 18 ms from one thread. One thread also keeps long
     * document batches from pinning the virtual-thread carriers. The intra-op threads still use
     * every core.
     */
    private static final ExecutorService INFERENCE =
            Executors.newSingleThreadExecutor(
                    Thread.ofPlatform().name("cairn-inference").daemon(true).factory());

    private static final ThreadLocal<Boolean> ON_INFERENCE_THREAD =
            ThreadLocal.withInitial(() -> false);

    private TorchRuntime() {}

    /** Forbids DJL downloads unless the user set the property explicitly. */
    public static void preferOffline() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        if (System.getProperty("ai.djl.pytorch.num_interop_threads") == null) {
            System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        }
    }

    /** The PyTorch engine, started on first use with intra-op threads = available processors. */
    public static Engine engine() {
        Engine e = engine;
        if (e != null) {
            return e;
        }
        synchronized (TorchRuntime.class) {
            if (engine == null) {
                engine = start();
            }
            return engine;
        }
    }

    private static Engine start() {
        preferOffline();
        boolean userLibrary =
                System.getenv("PYTORCH_LIBRARY_PATH") != null
                        || System.getProperty("PYTORCH_LIBRARY_PATH") != null;
        if (!userLibrary
                && TorchRuntime.class.getClassLoader().getResource(NATIVE_PROPERTIES) == null) {
            throw new IllegalStateException(
                    "PyTorch native library missing: no "
                            + NATIVE_PROPERTIES
                            + " on the classpath; add "
                            + NATIVE_ARTIFACT
                            + " (or set PYTORCH_LIBRARY_PATH). Downloads are disabled"
                            + " (ai.djl.offline=true).");
        }
        NativeHeap.keepFreedMemory(System.getenv());
        Engine e;
        try {
            e = Engine.getEngine("PyTorch");
        } catch (EngineException | IllegalArgumentException ex) {
            throw new IllegalStateException(
                    "cannot load the PyTorch native library from " + NATIVE_ARTIFACT, ex);
        }
        JniUtils.setNumThreads(threads());
        LOG.log(
                Level.INFO,
                "PyTorch {0} loaded offline; intra-op threads {1}",
                e.getVersion(),
                JniUtils.getNumThreads());
        return e;
    }

    /** PyTorch's intra-op threads: {@value #THREADS_PROPERTY}, else one per core. */
    public static int threads() {
        return Math.max(1, Integer.getInteger(THREADS_PROPERTY, DEFAULT_THREADS));
    }

    /**
     * Runs {@code work} with PyTorch's intra-op threads set to {@code threads}, then restores them.
     * Only on the inference thread, the one thread that runs PyTorch, so nothing else sees the
     * change.
     */
    public static <T> T withIntraOpThreads(int threads, Callable<T> work) {
        if (!ON_INFERENCE_THREAD.get()) {
            throw new IllegalStateException("intra-op threads change off the inference thread");
        }
        int previous = JniUtils.getNumThreads();
        if (previous == threads) {
            return call(work);
        }
        JniUtils.setNumThreads(threads);
        try {
            return call(work);
        } finally {
            JniUtils.setNumThreads(previous);
        }
    }

    private static <T> T call(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code work} on the inference thread and waits for it; runs it directly when already
     * there. Exceptions of {@code work} reach the caller unwrapped.
     */
    public static <T> T onInferenceThread(Callable<T> work) {
        if (ON_INFERENCE_THREAD.get()) {
            return call(work);
        }
        Future<T> result =
                INFERENCE.submit(
                        () -> {
                            ON_INFERENCE_THREAD.set(true);
                            return work.call();
                        });
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for inference");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Queues {@code work} to run on the inference thread after what is queued, without waiting. */
    public static void later(Runnable work) {
        INFERENCE.execute(
                () -> {
                    ON_INFERENCE_THREAD.set(true);
                    work.run();
                });
    }

    /** Whether the calling thread is the inference thread. */
    public static boolean isInferenceThread() {
        return ON_INFERENCE_THREAD.get();
    }

    /** Turns off autograd for the calling thread (PyTorch's grad mode is thread-local). */
    public static void noGrad() {
        JniUtils.setGradMode(false);
    }
}
