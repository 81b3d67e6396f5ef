/** Wiring that other modules or the service loader need, not API. */
package dev.cairn.retrieval.internal;
