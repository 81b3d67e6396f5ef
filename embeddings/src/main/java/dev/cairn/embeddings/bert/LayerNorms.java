package dev.cairn.embeddings.bert;

import java.util.List;

/**
 * One encoder layer's two LayerNorm parameter pairs as Java arrays, read by every row of the Java
 * row loops ({@link Int8ShortPass}, {@code VectorRows.rescaleAddNormaliseRows}).
 */
record LayerNorms(
        float[] attentionGamma, float[] attentionBeta, float[] outputGamma, float[] outputBeta) {

    /** Each layer's of {@code weights}, in order. */
    static List<LayerNorms> of(BertWeights weights) {
        return weights.layers.stream()
                .map(
                        l ->
                                new LayerNorms(
                                        l.attentionNormGamma().toFloatArray(),
                                        l.attentionNormBeta().toFloatArray(),
                                        l.outputNormGamma().toFloatArray(),
                                        l.outputNormBeta().toFloatArray()))
                .toList();
    }
}
