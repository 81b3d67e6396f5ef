/** Bearer-token authentication: tokens are kept as SHA-256 hashes and grant roles on namespaces. */
package dev.cairn.server.auth;
