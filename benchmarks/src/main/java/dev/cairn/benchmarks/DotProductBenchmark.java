package dev.cairn.benchmarks;

import dev.cairn.retrieval.dense.UnitVectors;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.util.VectorUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The exact dense scan's inner loop: the cosine of one query against {@code vectors} unit vectors
 * of 384 dimensions (bge-small's), by {@link UnitVectors#cosine} (a fixed summation order, the same
 * bits on every call) and by Lucene's {@code VectorUtil.dotProduct} (whose lane reduction changes
 * order when C2 compiles it). 2,000 vectors (3 MB) stay in cache, as a namespace's memories do;
 * 50,000 (77 MB) stream from memory, as a large corpus does. Reported per scan.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DotProductBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@State(Scope.Benchmark)
public class DotProductBenchmark {

    static final int DIMENSIONS = 384;

    @Param({"2000", "50000"})
    int vectors;

    float[][] table;
    float[] query;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(17);
        table = new float[vectors][];
        for (int i = 0; i < vectors; i++) {
            table[i] = unit(random);
        }
        query = unit(random);
    }

    @Benchmark
    public double ordered() {
        double best = -1;
        for (float[] v : table) {
            best = Math.max(best, UnitVectors.cosine(query, v));
        }
        return best;
    }

    @Benchmark
    public double lucene() {
        double best = -1;
        for (float[] v : table) {
            best = Math.max(best, VectorUtil.dotProduct(query, v));
        }
        return best;
    }

    private static float[] unit(SplittableRandom random) {
        float[] v = new float[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) {
            v[i] = (float) (random.nextDouble() * 2 - 1);
        }
        return VectorUtil.l2normalize(v);
    }
}
