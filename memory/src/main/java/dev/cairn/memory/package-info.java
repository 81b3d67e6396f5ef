/**
 * Typed agent memory, storage-independent core: the model ({@link dev.cairn.memory.Memory}, {@link
 * dev.cairn.memory.MemoryType}, {@link dev.cairn.memory.MemoryStatus}, {@link
 * dev.cairn.memory.Layer}, {@link dev.cairn.memory.Scope}), the pure lifecycle policy ({@link
 * dev.cairn.memory.MemoryLifecycle}), recall scoring ({@link dev.cairn.memory.RecallScorer}) and
 * context assembly ({@link dev.cairn.memory.ContextAssembler}).
 *
 * <h2>Formulas</h2>
 *
 * <ul>
 *   <li>Expiry: {@code expiresAt = createdAt + (ttlDays > 0 ? ttlDays : type.defaultTtlDays)};
 *       reinforcement extends it to {@code max(expiresAt, now + ttl)}.
 *   <li>Duplicate: same scope, same type and equal {@code contentHash = sha256(normalize(text))},
 *       where {@code normalize} is NFKC, format characters removed, lower case, whitespace runs
 *       collapsed, trailing punctuation removed.
 *   <li>Near-duplicate merge: cosine >= 0.92 (configurable) to an ACTIVE same-type same-scope
 *       memory.
 *   <li>Reinforced confidence: {@code 1 - (1 - a)(1 - b)} (independent evidence); importance {@code
 *       max(a, b)}; tags united; recall count kept.
 *   <li>Recall score: {@code 0.55 relevance + 0.10 importance + 0.20 confidence + typeBonus(type)},
 *       plus {@code w recency} where {@code recency = 0.5^(ageDays / 120)} with age from {@code
 *       updatedAt} and {@code w} is 0 unless configured; ties by recency descending, then id
 *       ascending. Weights in {@link dev.cairn.memory.RecallScorer.Weights}.
 *   <li>Context: {@code count(context) <= maxTokens} (default 3,500) always.
 * </ul>
 *
 * <p>All records here are immutable values (collections copied in their constructors) and
 * thread-safe. Nothing in this package logs memory content.
 */
package dev.cairn.memory;
