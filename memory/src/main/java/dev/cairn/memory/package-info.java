/** Cairn memory module. */
package dev.cairn.memory;
