package dev.cairn.store;

import java.nio.file.Path;

/**
 * A child process for {@link EmbeddedStoreTest}: writes change rows into an embedded store, one
 * transaction each, printing {@code acked <i>} after each write returns, then waits to be killed.
 */
final class EmbeddedWriterProcess {

    private EmbeddedWriterProcess() {}

    public static void main(String[] args) throws InterruptedException {
        Path dataDir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        Store store = Store.embedded(dataDir, StoreContractTest.config());
        store.createNamespace("durable", "");
        for (int i = 0; i < count; i++) {
            StoreContractTest.appendChange(
                    store, "durable", Change.Kind.MEMORY, "m-" + i, Change.Op.UPSERT);
            System.out.println("acked " + i);
            System.out.flush();
        }
        // Never closes the store: the test kills this process.
        Thread.sleep(Long.MAX_VALUE);
    }
}
