/** The HTTP resources of API.md, one class per resource family. */
package dev.cairn.server.api;
