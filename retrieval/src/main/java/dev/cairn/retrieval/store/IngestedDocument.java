package dev.cairn.retrieval.store;

import dev.cairn.store.Records;

/**
 * What a stored document was ingested from, as {@link DocumentRepository#ingestedDocuments} reports
 * it.
 *
 * @param id document id
 * @param version its current version
 * @param ingestKey the {@link DocumentWrite#ingestKey()} it was written with, not empty
 * @param chunks how many chunks it has
 */
public record IngestedDocument(String id, long version, String ingestKey, int chunks) {

    public IngestedDocument {
        Records.requireText(id, "id");
        Records.requireText(ingestKey, "ingestKey");
        if (chunks < 0) {
            throw new IllegalArgumentException("illegal chunks: " + chunks + ", must be >= 0");
        }
    }
}
