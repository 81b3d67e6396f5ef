/**
 * Quality evaluation of the judge on SciFact claim verification (Wadden et al., EMNLP 2020): each
 * training claim is judged as an answer citing the sentences of its cited abstracts, and the
 * verdict is read as SUPPORT, CONTRADICT or NOT_ENOUGH_INFO. Runs on demand only; see {@link
 * dev.cairn.judge.eval.SciFactEvaluation}.
 */
package dev.cairn.judge.eval;
