/**
 * The JSON answers of Cairn's own API as records: the one definition the server writes and the Java
 * client reads. Serialised by Jackson in declaration order. A component that the API sends only in
 * some answers is null otherwise and left out ({@code JsonInclude.Include.NON_NULL} on that
 * component); maps are kept only where the keys are data (per-signal ranks, per-authority evidence,
 * document metadata). The server maps its domain values onto these records in {@code
 * dev.cairn.server.api.view}.
 */
package dev.cairn.api.view;
