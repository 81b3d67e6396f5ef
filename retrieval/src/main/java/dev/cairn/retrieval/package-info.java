/** Cairn retrieval module. */
package dev.cairn.retrieval;
