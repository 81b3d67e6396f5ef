package dev.cairn.embeddings.kernels;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Map;

/**
 * Sets glibc's heap so that the native memory of freed tensors is reused, not handed back to the
 * kernel between the layers of a pass.
 *
 * <p>Why: by default glibc returns the free top of a heap once it is larger than twice the largest
 * block it recently gave back, and a thread's own heap is shrunk the same way; the next layer of a
 * document batch (activations up to 25 MB) then faults those pages in again, zeroed. On a 2-core
 * AMD EPYC Zen 5 a fifth of a document pass's time went to page faults in the int8 product's
 * output; with a fixed mmap threshold of 32 MB (glibc's largest) and a trim threshold of 256 MB,
 * SciFact documents/s rose from 10.7-14.0 to 14.0-16.4 (alternating JMH runs). The price: up to 256
 * MB of freed memory may stay in the process.
 *
 * <p>What the thresholds cannot keep: glibc unmaps a thread's secondary heap (64 MB at most) once
 * it holds nothing, so a block that needed a heap of its own is mapped afresh next time. Measured
 * with int8 passes over 256 SciFact abstracts, after the first: 0 to 38,000 page faults a pass (0
 * to 150 MB, mostly under 1,000), against 170,000-200,000 in the first. {@code MALLOC_ARENA_MAX=1}
 * (one heap, grown by brk) removes them; not set, as the gain is within the noise of documents/s.
 *
 * <p>Both settings are left alone where the environment sets either (glibc reads {@code
 * MALLOC_MMAP_THRESHOLD_} and {@code MALLOC_TRIM_THRESHOLD_} at start), and nothing happens where
 * the C library has no {@code mallopt}.
 */
final class NativeHeap {

    private static final System.Logger LOG = System.getLogger(NativeHeap.class.getName());

    /** glibc's {@code M_TRIM_THRESHOLD}. */
    private static final int M_TRIM_THRESHOLD = -1;

    /** glibc's {@code M_MMAP_THRESHOLD}. */
    private static final int M_MMAP_THRESHOLD = -3;

    /** Blocks up to this size come from the heap: glibc's largest mmap threshold on 64 bits. */
    static final int MMAP_THRESHOLD = 32 << 20;

    /** Free memory at a heap's top kept for reuse, at most. */
    static final int TRIM_THRESHOLD = 256 << 20;

    private static final String[] ENVIRONMENT = {
        "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"
    };

    private static Boolean set;

    private NativeHeap() {}

    /**
     * Sets both thresholds once per process unless {@code environment} names either; whether they
     * are set as this class sets them.
     */
    static synchronized boolean keepFreedMemory(Map<String, String> environment) {
        if (set == null) {
            set = apply(environment);
        }
        return set;
    }

    /** Whether {@code environment} sets either threshold for glibc itself. */
    static boolean setByEnvironment(Map<String, String> environment) {
        for (String name : ENVIRONMENT) {
            if (environment.containsKey(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean apply(Map<String, String> environment) {
        if (setByEnvironment(environment)) {
            LOG.log(System.Logger.Level.INFO, "native heap thresholds left to the environment");
            return false;
        }
        Linker linker = Linker.nativeLinker();
        var mallopt = linker.defaultLookup().find("mallopt");
        if (mallopt.isEmpty()) {
            return false;
        }
        MethodHandle handle =
                linker.downcallHandle(
                        mallopt.get(),
                        FunctionDescriptor.of(
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try {
            // the mmap threshold first: setting either fixes both, and the trim threshold alone
            // would leave blocks above glibc's starting 128 KB mapped afresh on every allocation
            int mmap = (int) handle.invokeExact(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
            int trim = (int) handle.invokeExact(M_TRIM_THRESHOLD, TRIM_THRESHOLD);
            return mmap == 1 && trim == 1;
        } catch (Throwable e) {
            throw new IllegalStateException("mallopt failed", e);
        }
    }
}
