package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OnnxGraphTest {

    @Test
    void mapsEveryLinearWeightToItsLayerThroughTheGraph() throws Exception {
        OnnxGraph graph;
        try (InputStream in =
                new BufferedInputStream(
                        getClass().getClassLoader().getResourceAsStream("all-minilm-l6-v2.onnx"))) {
            graph = OnnxGraph.parse(in);
        }
        Map<String, OnnxGraph.Tensor> weights = BertWeights.linearWeightsByName(graph);
        // 6 layers x (query, key, value, attention output, intermediate, output)
        assertThat(weights).hasSize(36);
        OnnxGraph.Tensor query3 = weights.get("encoder.layer.3.attention.self.query.weight");
        assertThat(query3.name()).startsWith("onnx::MatMul_");
        assertThat(query3.dims()).containsExactly(384, 384);
        assertThat(weights.get("encoder.layer.5.intermediate.dense.weight").dims())
                .containsExactly(384, 1536);
        OnnxGraph.Node matMul =
                graph.nodes().stream()
                        .filter(n -> n.opType().equals("MatMul"))
                        .filter(n -> n.inputs().contains(query3.name()))
                        .findFirst()
                        .orElseThrow();
        assertThat(matMul.name()).isEqualTo("/encoder/layer.3/attention/self/query/MatMul");
    }
}
