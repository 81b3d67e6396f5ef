/**
 * Ranking-quality evaluation: BEIR folders ({@link dev.cairn.eval.beir.Beir}), trec_eval compatible
 * nDCG@10, Recall@100 and MRR@10 ({@link dev.cairn.eval.beir.Metrics}) and TREC run files ({@link
 * dev.cairn.eval.beir.RunFile}).
 */
package dev.cairn.eval.beir;
