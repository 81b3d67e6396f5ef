/**
 * A typed Java client of Cairn's HTTP API over {@code java.net.http} and Jackson: {@link
 * dev.cairn.client.CairnClient} for namespaces, {@link dev.cairn.client.NamespaceClient} for what
 * lives in one. Requests and answers are the server's own records ({@code dev.cairn.api}); errors
 * are {@link dev.cairn.client.CairnException}.
 */
package dev.cairn.client;
