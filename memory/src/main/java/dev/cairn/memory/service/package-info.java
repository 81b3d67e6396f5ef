/**
 * The memory service: the write path (write safety, secret redaction, de-duplication, supersession,
 * one transaction), reads, status changes, hybrid recall with a deadline and a token-budgeted
 * context, and scheduled maintenance.
 *
 * <h2>Recall</h2>
 *
 * <pre>
 * candidates = BM25 top-N over the namespace's memories' informal-spelling copies (InformalText;
 *              the query without its question words, QuestionWords, unless dropQuestionWords is
 *              off, and without the words that named a person, PersonNames)
 *              ∪  dense top-N by cosine (exact scan, the query as asked)
 * keep       = ACTIVE, enabled, not deleted, of the asked user/agent (or of no user/agent),
 *              of the asked types/layers, and cos(query, memory) >= threshold
 *              (a memory whose normalised text contains the normalised query passes anyway)
 * relevance  = HYBRID: wDense * max(cos, 0) + wLexical * bm25 / maxBm25 (over the candidates),
 *                      divided by wDense + wLexical (a convex combination, Bruch et al., TOIS 2023)
 *              LEXICAL: bm25 / maxBm25;  DENSE: max(cos, 0)
 *              x (1 + periodBonus) when written in the calendar period the query names,
 *              x (1 + timeBonus) when the query asks when and the memory says when (TimeMentions);
 *              + sessionShare x the best of its session's found turns for a conversation turn;
 *              then the other speaker's found next turn after a found turn that ends asking
 *              gets answerShare of it (TranscriptLine.asks);
 *              then a found brief turn within two turns of one of the five most relevant found
 *              brief turns is raised to that turn's relevance (briefTurns.bursts);
 *              then x (1 + speakerBonus) for a memory of a user the query names by any of their
 *              names (PersonNames), listSpeakerBonus instead when the query asks for several
 *              things (SpeakerQuery);
 *              last, when it asks for several things, x (1 + facetBonus) for a memory that tells
 *              of a facet the query asks for (Facet: places, pastimes, pets, ...);
 *              then x (1 - briefTurns.discount x (words - n) / words) for a conversation turn
 *              whose own line has n < words words (a reaction: "lol", "did what");
 *              none of these caps at 1: when the largest relevance is above 1, every relevance
 *              is divided by it (their order is kept; capped, strong turns tied at 1)
 * score      = RecallScorer (relevance, importance, recency, confidence, type bonus)
 * order      = score desc, id asc; at most limit (25); then ContextAssembler within maxTokens
 * </pre>
 *
 * The lexical and dense searches run in parallel on the hybrid search core ({@link
 * dev.cairn.retrieval.search.HybridSearch}); when the deadline passes, what has finished is used
 * and the answer is marked partial. The relevance is that core's convex fusion with {@link
 * dev.cairn.retrieval.fusion.Normalization#MAX_SCALED}; a signal weighted 0 is left out of it.
 */
package dev.cairn.memory.service;
