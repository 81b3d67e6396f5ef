package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The heap settings glibc gets for tensors, and what they change: freed blocks are reused. */
class NativeHeapTest {

    private static final Linker LINKER = Linker.nativeLinker();

    private static final MethodHandle MALLOC =
            LINKER.downcallHandle(
                    LINKER.defaultLookup().find("malloc").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));

    private static final MethodHandle FREE =
            LINKER.downcallHandle(
                    LINKER.defaultLookup().find("free").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    /** An activation of a document batch: 4,096 rows of 1,536 int32, just under glibc's cap. */
    private static final long BLOCK = 4096L * 1536 * Integer.BYTES;

    @Test
    void theEnvironmentsOwnThresholdsWin() {
        assertThat(NativeHeap.setByEnvironment(Map.of("MALLOC_TRIM_THRESHOLD_", "0"))).isTrue();
        assertThat(NativeHeap.setByEnvironment(Map.of("MALLOC_MMAP_THRESHOLD_", "0"))).isTrue();
        assertThat(NativeHeap.setByEnvironment(Map.of("MALLOC_ARENA_MAX", "2"))).isFalse();
    }

    /**
     * A freed block of an activation's size is handed out again with its pages in place, while the
     * next layer's activation is alive: glibc's defaults map such a block afresh or return it at
     * free, so writing it again faults in every page (6,144 of 4 KB here).
     *
     * <p>The second live block is part of the setting, not decoration: glibc unmaps a thread's
     * secondary heap as soon as it holds nothing, whatever the thresholds, and a lone block that
     * needed a heap of its own (the test thread's heap being full) made this test fail about once
     * in five full runs.
     */
    @Test
    void aFreedActivationSizedBlockComesBackWithoutPageFaults() throws Throwable {
        assumeTrue(
                System.getProperty("os.name").equals("Linux")
                        && !NativeHeap.setByEnvironment(System.getenv()),
                "skipped: glibc's thresholds are this class's only on Linux without"
                        + " MALLOC_*_THRESHOLD_ set; elsewhere the allocator keeps its own");
        assertThat(NativeHeap.keepFreedMemory(System.getenv())).isTrue();

        MemorySegment first = malloc();
        MemorySegment next = malloc();
        first.fill((byte) 1);
        next.fill((byte) 1);
        FREE.invokeExact(first);
        MemorySegment again = malloc();
        long before = minorFaults();
        again.fill((byte) 2);
        long faults = minorFaults() - before;
        FREE.invokeExact(again);
        FREE.invokeExact(next);

        assertThat(faults).as("page faults writing the block again").isLessThan(BLOCK / 4096 / 8);
    }

    private static MemorySegment malloc() throws Throwable {
        MemorySegment block = (MemorySegment) MALLOC.invokeExact(BLOCK);
        assertThat(block.address()).isNotZero();
        return block.reinterpret(BLOCK);
    }

    /** The process's minor page faults so far ({@code minflt}, field 10 of /proc/self/stat). */
    private static long minorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]);
    }
}
