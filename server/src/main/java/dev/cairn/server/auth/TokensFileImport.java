package dev.cairn.server.auth;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cairn.server.http.Json;
import dev.cairn.store.StoredToken;
import dev.cairn.store.StoredTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Moves {@value #FILE}, where a data dir kept its managed tokens before they were kept in the store
 * (issue 43), into the store once, at start: tokens whose name and hash are both new are added, the
 * file is renamed {@value #IMPORTED} so it is not read again, and one INFO line gives the counts.
 * Running it again after a crash between the two steps adds nothing twice. A token of the file
 * whose name the store gives to another hash (one another server made) is not imported; a WARNING
 * names it. Stateless, thread-safe.
 */
public final class TokensFileImport {

    private static final System.Logger LOG = System.getLogger(TokensFileImport.class.getName());

    /** The file a data dir kept its managed tokens in (hashes only) before issue 43. */
    public static final String FILE = "tokens.json";

    /** What {@value #FILE} is renamed to once its tokens are in the store. */
    public static final String IMPORTED = FILE + ".imported";

    private TokensFileImport() {}

    /**
     * Imports {@code dataDir}'s {@value #FILE} into {@code stored} when there is one; answers how
     * many tokens were added.
     */
    public static int run(Path dataDir, StoredTokens stored) {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return 0;
        }
        List<StoredToken> tokens = read(file);
        int added = stored.insertMissing(tokens);
        Map<String, String> storedHashes =
                stored.all().stream()
                        .collect(Collectors.toMap(StoredToken::name, StoredToken::sha256));
        List<String> refused =
                tokens.stream()
                        .filter(t -> !t.sha256().equals(storedHashes.get(t.name())))
                        .map(StoredToken::name)
                        .toList();
        for (String name : refused) {
            LOG.log(
                    Level.WARNING,
                    "token ''{0}'' of {1} not imported: the store holds another token of that"
                            + " name; make it again with POST /v1/tokens under a new name",
                    name,
                    file);
        }
        Path imported = file.resolveSibling(IMPORTED);
        try {
            Files.move(file, imported, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rename " + file + " to " + imported, e);
        }
        LOG.log(
                Level.INFO,
                "moved {0} managed tokens from {1} into the store ({2} already there, {3} not"
                        + " imported); the file is now {4}",
                added,
                file,
                tokens.size() - added - refused.size(),
                refused.size(),
                imported.getFileName());
        return added;
    }

    /** The tokens of a {@value #FILE}, as the store keeps them. */
    public static List<StoredToken> read(Path file) {
        try {
            return Json.MAPPER
                    .readValue(file.toFile(), new TypeReference<List<ApiToken>>() {})
                    .stream()
                    .map(ApiToken::stored)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read managed tokens from " + file, e);
        }
    }
}
