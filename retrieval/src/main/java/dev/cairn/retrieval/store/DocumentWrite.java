package dev.cairn.retrieval.store;

import java.util.List;
import java.util.Objects;

/**
 * One document of a batch write ({@link DocumentRepository#replaceDocuments}): the document, its
 * chunks and the ingest key of the input it was made from.
 *
 * @param document the document
 * @param chunks its chunks, embedded or not
 * @param ingestKey what the writer made the document from (a hash of the parsed input, the chunking
 *     and the embedding model), kept so that a later ingest of the same input can skip it ({@link
 *     DocumentRepository#ingestedDocuments}); empty when the writer does not skip
 */
public record DocumentWrite(DocumentDraft document, List<ChunkDraft> chunks, String ingestKey) {

    public DocumentWrite {
        Objects.requireNonNull(document, "document");
        chunks = List.copyOf(chunks);
        Objects.requireNonNull(ingestKey, "ingestKey");
    }
}
