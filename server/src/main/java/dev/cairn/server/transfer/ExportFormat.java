package dev.cairn.server.transfer;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cairn.store.Namespace;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * The export file's frame: a {@link Header} line, one line per record ({@link #RECORD_TYPES}), an
 * {@link End} line that counts them, so a truncated file is told from a complete one. Vectors are
 * base64 of little-endian float32. Stateless.
 */
final class ExportFormat {

    /** The {@code format} of the header line. */
    static final String FORMAT = "cairn-namespace-export";

    /**
     * The version this build writes: 3 gives memories their turn windows' vectors, 4 adaptations
     * their learned fusion.
     */
    static final int VERSION = 4;

    /**
     * The versions this build reads: 1 holds only the first four record types, 1 and 2 no turn
     * windows, 1 to 3 no learned fusion.
     */
    static final java.util.Set<Integer> READABLE = java.util.Set.of(1, 2, 3, 4);

    /** The record types of version 1, in the order an export writes them. */
    static final java.util.List<String> VERSION_1_TYPES =
            java.util.List.of(
                    ExportedDocument.TYPE,
                    ExportedMemory.TYPE,
                    ExportedConversation.TYPE,
                    ExportedEntry.TYPE);

    /** The record types of versions 2 to 4, in the order an export writes them. */
    static final java.util.List<String> RECORD_TYPES =
            java.util.List.of(
                    ExportedDocument.TYPE,
                    ExportedMemory.TYPE,
                    ExportedConversation.TYPE,
                    ExportedEntry.TYPE,
                    ExportedRelation.TYPE,
                    ExportedProposal.TYPE,
                    ExportedJudgment.TYPE,
                    ExportedAdaptation.TYPE,
                    ExportedPolicy.TYPE);

    /** The record types a file of {@code version} may hold. */
    static java.util.List<String> recordTypes(int version) {
        return version == 1 ? VERSION_1_TYPES : RECORD_TYPES;
    }

    /** The media type of the file over HTTP. */
    static final String MEDIA_TYPE = "application/x-ndjson";

    /**
     * Strict about what a line may hold: an unknown field is a malformed line, not a field silently
     * dropped on import.
     */
    static final ObjectMapper JSON =
            JsonMapper.builder()
                    .findAndAddModules()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .disable(SerializationFeature.INDENT_OUTPUT)
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                    .serializationInclusion(JsonInclude.Include.ALWAYS)
                    .build();

    private ExportFormat() {}

    /**
     * The first line.
     *
     * @param namespace the namespace it was exported from (an import may name another)
     * @param description its description
     * @param recallScope its recall scope ({@code user} or {@code namespace})
     * @param model the model id its vectors were computed by
     * @param dimensions their length
     */
    record Header(
            String format,
            int version,
            String namespace,
            String description,
            Namespace.RecallScope recallScope,
            Instant exportedAt,
            String model,
            int dimensions) {}

    /** The last line: how many records of each kind come before it. */
    record End(String type, Map<String, Long> records) {
        static final String TYPE = "end";
    }

    static String encode(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    /**
     * The vector in {@code base64}; empty for an empty string.
     *
     * @throws IllegalArgumentException when it is not base64 of a whole number of floats, or holds
     *     a value that is not finite
     */
    static float[] decode(String base64) {
        byte[] raw = Base64.getDecoder().decode(base64);
        if (raw.length % 4 != 0) {
            throw new IllegalArgumentException(
                    "illegal vector: " + raw.length + " bytes, not a whole number of float32s");
        }
        float[] vector = new float[raw.length / 4];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        for (float v : vector) {
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException("illegal vector: holds " + v);
            }
        }
        return vector;
    }
}
