/** Cairn benchmarks module. */
package dev.cairn.benchmarks;
