/** Cairn server module. */
package dev.cairn.server;
