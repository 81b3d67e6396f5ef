/**
 * Cairn's wire records, shared by the server and its clients: request bodies in {@code
 * dev.cairn.api.body}, answers in {@code dev.cairn.api.view}. Depends on Jackson's annotations
 * only.
 */
package dev.cairn.api;
