/**
 * Cairn's HTTP server (Helidon SE 4): wiring of the library modules, configuration, auth and the
 * {@code /v1} API. Only this module knows Helidon.
 */
package dev.cairn.server;
