/**
 * The request bodies of Cairn's own {@code /v1} API as records, bound strictly (unknown fields are
 * 400s, see {@link dev.cairn.server.http.RequestBodies}). Field names are the API's camelCase; an
 * absent or null optional field takes its documented default in the record's constructor, so the
 * resources only see complete values.
 */
package dev.cairn.server.api.body;
