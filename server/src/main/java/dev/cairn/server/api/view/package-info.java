/**
 * The JSON answers of Cairn's own API as records, serialised by Jackson in declaration order. A
 * component that the API sends only in some answers is null otherwise and left out ({@code
 * JsonInclude.Include.NON_NULL} on that component); maps are kept only where the keys are data
 * (per-signal ranks, per-authority evidence, document metadata).
 */
package dev.cairn.server.api.view;
