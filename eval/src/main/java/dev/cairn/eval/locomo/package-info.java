/**
 * Memory recall quality on LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational
 * Memory of LLM Agents", ACL 2024): every dialogue turn becomes a memory, every question with
 * evidence is recalled, and evidence recall@k is measured per candidate mode.
 *
 * <pre>
 * recall@k(q) = |evidence(q) ∩ diaIds(top k memories)| / |evidence(q)|,  averaged over questions
 * </pre>
 */
package dev.cairn.eval.locomo;
