/** Cairn graph module. */
package dev.cairn.graph;
