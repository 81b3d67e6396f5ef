/**
 * Learning from judgments: relevance feedback ({@link dev.cairn.retrieval.feedback.FeedbackLog}),
 * the query-side linear adapter trained from it ({@link dev.cairn.retrieval.feedback.QueryAdapter},
 * {@link dev.cairn.retrieval.feedback.QueryAdapterTrainer}) and the namespace's versions of it
 * ({@link dev.cairn.retrieval.feedback.AdaptationStore}).
 *
 * <h2>Formulas</h2>
 *
 * <ul>
 *   <li><b>Adapted query</b>: {@code q' = W q / |W q|}, {@code W} a {@code d x d} matrix starting
 *       at the identity; the dense score of chunk {@code d} becomes {@code cos(W q, d)}.
 *   <li><b>Loss</b> per judged query (InfoNCE with several positives): {@code L = -log(sum_{p in P}
 *       e^{s_p / t} / sum_{j in C} e^{s_j / t}) + lambda/2 |W - I|^2}, {@code C} the relevant
 *       chunks, the query's hard negatives and the batch's other relevant chunks; {@code t = 0.05},
 *       {@code lambda = 10} (0.01 before issue 42), Adam, 20 epochs, batches of 32.
 *   <li><b>Judged-relevant prior</b>: after fusion, {@code + priorWeight * n / (n + 1) / (k + 1)}
 *       for a candidate whose document {@code n} training queries judged relevant ({@link
 *       dev.cairn.retrieval.feedback.JudgedPrior}, {@code priorWeight} 0.1).
 *   <li><b>Adapted fusion</b>: the dense weight times a factor from {1, 1.5, 2, 3} chosen on the
 *       training queries; activation ({@link dev.cairn.retrieval.feedback.ActivationRule}) needs a
 *       higher mean nDCG@10 on all held-back queries and no loss beyond {@code min(0.01, one
 *       standard error)} on those whose relevant documents were never trained on ({@link
 *       dev.cairn.retrieval.feedback.JudgmentSplit}).
 * </ul>
 */
package dev.cairn.retrieval.feedback;
