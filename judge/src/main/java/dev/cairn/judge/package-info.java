/** Cairn judge module. */
package dev.cairn.judge;
