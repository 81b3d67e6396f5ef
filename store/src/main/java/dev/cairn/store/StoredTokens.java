package dev.cairn.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The API tokens kept in the store (table {@code api_tokens}, migration V021), shared by every
 * server on it. Names and hashes are unique, so of two servers making the same name at once one
 * wins. Every insert and delete raises {@link #revision()} in its own transaction: a reader that
 * keeps the tokens in memory reads the revision, cheaply, to learn whether they changed.
 * Implementations are thread-safe.
 */
public interface StoredTokens {

    /** Every token, by name. */
    List<StoredToken> all();

    /** The token with this hash. */
    Optional<StoredToken> byHash(String sha256);

    /**
     * Adds a token.
     *
     * @throws IllegalStateException when a token of that name (or hash) is kept already
     */
    void insert(StoredToken token);

    /**
     * Adds each token whose name and hash are both new, in one transaction; the others are left as
     * they are. Answers how many were added.
     */
    int insertMissing(Collection<StoredToken> tokens);

    /** Deletes the token of that name; false when there is none. */
    boolean delete(String name);

    /** A number that grows with every insert and delete; equal reads saw the same tokens. */
    long revision();
}
