/**
 * Ranking-quality evaluation: BEIR folders ({@link dev.cairn.retrieval.eval.Beir}), trec_eval
 * compatible nDCG@10, Recall@100 and MRR@10 ({@link dev.cairn.retrieval.eval.Metrics}) and TREC run
 * files ({@link dev.cairn.retrieval.eval.RunFile}).
 */
package dev.cairn.retrieval.eval;
