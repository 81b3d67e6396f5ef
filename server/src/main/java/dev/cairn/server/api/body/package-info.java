/**
 * The request bodies of the server's own routes that the Java client does not share: the tool
 * arguments and the bodies whose defaults are a library's record ({@code TrainBody}). Bound
 * strictly (unknown fields are 400s, see {@link dev.cairn.server.http.RequestBodies}); an absent or
 * null optional field takes its documented default in the record's constructor. The bodies the
 * client sends too are in {@code dev.cairn.api.body} (module {@code clients/api}).
 */
package dev.cairn.server.api.body;
