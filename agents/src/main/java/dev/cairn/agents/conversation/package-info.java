/**
 * Conversations and their messages, as the ARK Memory API stores them: each message is kept as the
 * JSON it was sent in (after secret redaction), with its role and text content extracted for
 * transcript search, ordered by a sequence number that increases per namespace, and optionally
 * expiring ({@code ttl_seconds}). Expired messages are never returned.
 */
package dev.cairn.agents.conversation;
