/**
 * Persistence of the judge over the store's SQL database (migrations {@code V006__judgements} and
 * {@code V025__answer_trace_index}): {@link dev.cairn.judge.store.JudgementRepository} keeps each
 * judged answer ({@code answer_traces}: query, answer, the evidence used, the retrieval trace id,
 * policy and plan) with its judgement ({@code answer_judgements}: the full judgement as JSON plus
 * the scores as columns); {@link dev.cairn.judge.store.PolicyRepository} keeps a namespace's
 * registered policy documents ({@code judge_policies}). Rows are namespaced; reads never cross
 * namespaces. Everything here is thread-safe.
 */
package dev.cairn.judge.store;
