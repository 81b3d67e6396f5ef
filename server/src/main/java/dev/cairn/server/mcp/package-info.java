/** The Model Context Protocol server: Cairn's tools, resources and prompt for MCP clients. */
package dev.cairn.server.mcp;
