package dev.cairn.embeddings.bert;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of an ONNX model that a hand-written encoder needs: float32 initializer tensors and the
 * graph's nodes (name, op type, inputs, outputs). Decodes the protobuf wire format directly with
 * {@link CodedInputStream}, so no generated ONNX classes are needed. Field numbers follow {@code
 * onnx.proto}: {@code ModelProto.graph = 7}; {@code GraphProto.node = 1, initializer = 5}; {@code
 * TensorProto.dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9}; {@code
 * NodeProto.input = 1, output = 2, name = 3, op_type = 4}.
 *
 * <p>Immutable after parsing and thread-safe; the float buffers it hands out are read-only views.
 */
final class OnnxGraph {

    /** ONNX {@code TensorProto.DataType.FLOAT}. */
    private static final int FLOAT = 1;

    private static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    /** A float32 initializer tensor. */
    record Tensor(String name, long[] dims, FloatBuffer data) {
        Tensor {
            long n = 1;
            for (long d : dims) {
                n *= d;
            }
            if (n != data.remaining()) {
                throw new IllegalArgumentException(
                        "tensor " + name + ": " + data.remaining() + " floats for shape of " + n);
            }
            dims = dims.clone();
        }

        @Override
        public long[] dims() {
            return dims.clone();
        }
    }

    /** A graph node. */
    record Node(String name, String opType, List<String> inputs, List<String> outputs) {
        Node {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    private final Map<String, Tensor> tensors;
    private final List<Node> nodes;

    private OnnxGraph(Map<String, Tensor> tensors, List<Node> nodes) {
        this.tensors = tensors;
        this.nodes = nodes;
    }

    Map<String, Tensor> tensors() {
        return tensors;
    }

    List<Node> nodes() {
        return nodes;
    }

    Optional<Tensor> tensor(String name) {
        return Optional.ofNullable(tensors.get(name));
    }

    Tensor require(String name) {
        Tensor t = tensors.get(name);
        if (t == null) {
            throw new IllegalStateException("ONNX model has no initializer named " + name);
        }
        return t;
    }

    /** Parses a serialized {@code ModelProto}. */
    static OnnxGraph parse(InputStream in) {
        try {
            CodedInputStream cis = CodedInputStream.newInstance(in);
            cis.setSizeLimit(MAX_MESSAGE_BYTES);
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            List<Node> nodes = new ArrayList<>();
            boolean sawGraph = false;
            while (true) {
                int tag = cis.readTag();
                if (tag == 0) {
                    break;
                }
                if (WireFormat.getTagFieldNumber(tag) == 7
                        && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                    sawGraph = true;
                    int limit = cis.pushLimit(cis.readRawVarint32());
                    parseGraph(cis, tensors, nodes);
                    cis.popLimit(limit);
                } else {
                    cis.skipField(tag);
                }
            }
            if (!sawGraph) {
                throw new IllegalArgumentException("not an ONNX model: no graph (field 7)");
            }
            return new OnnxGraph(Map.copyOf(tensors), List.copyOf(nodes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ONNX model", e);
        }
    }

    private static void parseGraph(
            CodedInputStream cis, Map<String, Tensor> tensors, List<Node> nodes)
            throws IOException {
        while (true) {
            int tag = cis.readTag();
            if (tag == 0) {
                return;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == 1
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int limit = cis.pushLimit(cis.readRawVarint32());
                nodes.add(parseNode(cis));
                cis.popLimit(limit);
            } else if (field == 5
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int limit = cis.pushLimit(cis.readRawVarint32());
                Tensor t = parseTensor(cis);
                cis.popLimit(limit);
                if (t != null) {
                    tensors.put(t.name(), t);
                }
            } else {
                cis.skipField(tag);
            }
        }
    }

    private static Node parseNode(CodedInputStream cis) throws IOException {
        List<String> inputs = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        String name = "";
        String opType = "";
        while (true) {
            int tag = cis.readTag();
            if (tag == 0) {
                return new Node(name, opType, inputs, outputs);
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> inputs.add(cis.readStringRequireUtf8());
                case 2 -> outputs.add(cis.readStringRequireUtf8());
                case 3 -> name = cis.readStringRequireUtf8();
                case 4 -> opType = cis.readStringRequireUtf8();
                default -> cis.skipField(tag);
            }
        }
    }

    /** Returns null for tensors that are not float32 (e.g. int64 shape constants). */
    private static Tensor parseTensor(CodedInputStream cis) throws IOException {
        List<Long> dims = new ArrayList<>();
        int dataType = 0;
        String name = "";
        ByteBuffer raw = null;
        List<Float> floats = new ArrayList<>();
        while (true) {
            int tag = cis.readTag();
            if (tag == 0) {
                break;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            int wire = WireFormat.getTagWireType(tag);
            switch (field) {
                case 1 -> {
                    if (wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                        int limit = cis.pushLimit(cis.readRawVarint32());
                        while (cis.getBytesUntilLimit() > 0) {
                            dims.add(cis.readInt64());
                        }
                        cis.popLimit(limit);
                    } else {
                        dims.add(cis.readInt64());
                    }
                }
                case 2 -> dataType = cis.readInt32();
                case 4 -> {
                    if (wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                        int limit = cis.pushLimit(cis.readRawVarint32());
                        while (cis.getBytesUntilLimit() > 0) {
                            floats.add(cis.readFloat());
                        }
                        cis.popLimit(limit);
                    } else {
                        floats.add(cis.readFloat());
                    }
                }
                case 8 -> name = cis.readStringRequireUtf8();
                case 9 -> raw = cis.readByteBuffer();
                default -> cis.skipField(tag);
            }
        }
        if (dataType != FLOAT) {
            return null;
        }
        long[] shape = dims.stream().mapToLong(Long::longValue).toArray();
        FloatBuffer data;
        if (raw != null) {
            data = raw.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        } else {
            float[] f = new float[floats.size()];
            for (int i = 0; i < f.length; i++) {
                f[i] = floats.get(i);
            }
            data = FloatBuffer.wrap(f);
        }
        return new Tensor(name, shape, data.asReadOnlyBuffer());
    }
}
