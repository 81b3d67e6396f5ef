/** Helpers the memory module's packages share; public for that reason only, not API. */
package dev.cairn.memory.internal;
