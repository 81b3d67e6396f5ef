package dev.cairn.retrieval.search;

/** One signal's work for a query: finds and ranks its candidates. Runs on the search's executor. */
@FunctionalInterface
public interface SignalTask {

    /** Ranks the candidates; a runtime exception makes the signal FAILED. */
    Ranking rank();
}
