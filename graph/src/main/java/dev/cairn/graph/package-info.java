/**
 * Cairn graph module: entities, typed relations and graph proximity for retrieval.
 *
 * <p>Ingest: {@link dev.cairn.graph.EntityGraph#ingest} declares front matter entities in the
 * namespace's {@link dev.cairn.graph.Gazetteer}, extracts mentions and stated relations with the
 * rule-based {@link dev.cairn.graph.EntityExtractor}, and replaces the document's part of the
 * namespace graph. Delete: {@link dev.cairn.graph.EntityGraph#removeDocument}. Retrieve: {@link
 * dev.cairn.graph.GraphSignal#rank} links the query to entities and ranks chunks by proximity.
 * Restart: {@link dev.cairn.graph.GraphSnapshot} writes the whole graph as a compact binary image
 * and reads it back exactly, instead of extracting every chunk again.
 *
 * <p>Formulas. Edge weight {@code w(e) = weight(type) * confidence} (API.md weights; a chunk's
 * {@code part_of} edge to its document weighs 1). Weighted expansion: {@code score(v) = max_p
 * prod_{e in p} w(e) * decay^|p|} over paths of at most {@code maxHops} edges from a linked entity.
 * Personalised PageRank: {@code r = (1 - d) p + d M^T r} on the same neighbourhood (Haveliwala
 * 2002). Supersession: a superseded document's chunks score {@code min(s * penalty, best successor
 * chunk * penalty)}; a contradicts edge weighs 0 and is never walked.
 */
package dev.cairn.graph;
