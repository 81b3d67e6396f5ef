/**
 * HTTP plumbing shared by every resource: bounded JSON bodies, RFC 9457 problem details, paging
 * parameters and the mapping of JDK exceptions to status codes.
 */
package dev.cairn.server.http;
