/**
 * A namespace as one versioned JSON Lines file ({@code docs/export-format.md}): {@link
 * NamespaceExport} writes it, {@link NamespaceImport} checks a whole file before it writes any of
 * it and can be run again over the same file without duplicates.
 */
package dev.cairn.server.transfer;
