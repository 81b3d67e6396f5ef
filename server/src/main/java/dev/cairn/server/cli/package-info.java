/** The {@code cairn} command line (picocli). */
package dev.cairn.server.cli;
