/** Cairn embeddings module. */
package dev.cairn.embeddings;
