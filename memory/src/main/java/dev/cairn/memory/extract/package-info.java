/**
 * Memory extraction: {@link dev.cairn.memory.extract.MemoryExtractor} finds candidates in a
 * query/response exchange (rule-based, or an OpenAI-compatible model via {@link
 * dev.cairn.memory.extract.OpenAiCompatibleExtractor}); {@link
 * dev.cairn.memory.extract.QualityGate} decides STORE, PROPOSE or REJECT. Precision and recall of
 * the rule-based extractor through the gate are checked against labelled sets in the tests. Records
 * are immutable and thread-safe.
 */
package dev.cairn.memory.extract;
