/**
 * Write-path safety: {@link dev.cairn.safety.WriteSafety} rules (prompt injection aimed at a future
 * model, exfiltration, chat-template and tool-call lookalikes, invisible and control characters,
 * size) with BLOCK or FLAG verdicts, and {@link dev.cairn.safety.SecretRedactor}, which replaces
 * secrets with {@code [REDACTED:<kind>]}. {@link dev.cairn.safety.WriteGuard} runs both in order.
 * Nothing here logs or returns the text it found. Records are immutable; every class is
 * thread-safe.
 */
package dev.cairn.safety;
