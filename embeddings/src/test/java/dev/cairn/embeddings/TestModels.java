package dev.cairn.embeddings;

/**
 * Real models shared by the test classes of one JVM: loading bge-small takes seconds, so each is
 * loaded once and left for the JVM to release. Thread-safe (class initialisation).
 */
final class TestModels {

    private TestModels() {}

    private static final class Bge {
        static final BertEncoder MODEL = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15);
    }

    private static final class MiniLm {
        static final BertEncoder MODEL = BertEncoder.load(BertSpec.ALL_MINILM_L6_V2);
    }

    static BertEncoder bge() {
        return Bge.MODEL;
    }

    static BertEncoder miniLm() {
        return MiniLm.MODEL;
    }

    static double cosine(float[] a, float[] b) {
        return OnnxRuntimeParityTest.cosine(a, b);
    }
}
