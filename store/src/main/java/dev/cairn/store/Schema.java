package dev.cairn.store;

import java.util.List;

/**
 * The tables one module keeps in the store: its migrations, found with {@link
 * java.util.ServiceLoader} when a store opens (each module lists its implementation in {@code
 * META-INF/services/dev.cairn.store.Schema}). A store holds the tables of the modules on its class
 * path; a module added later brings its migrations with it and they are applied at the next open.
 *
 * <p>Migration versions are one sequence across modules (a version belongs to exactly one module)
 * and are applied in version order; a module's migration with a lower version than ones already
 * applied is applied too, so modules need not know of each other. Implementations are stateless.
 */
public interface Schema {

    /** The module's name, for messages. */
    String module();

    /**
     * Class path folder (absolute, ending in {@code /}) holding {@code <dialect>/<file>} for each
     * of {@link #migrations()}; dialects are {@code sqlite} and {@code postgres}.
     */
    String resourceRoot();

    /** Migration file names {@code V<nnn>__<name>.sql}, in any order. */
    List<String> migrations();
}
