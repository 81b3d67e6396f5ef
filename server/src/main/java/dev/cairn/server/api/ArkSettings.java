package dev.cairn.server.api;

/**
 * How the ARK mount treats long conversations and bursts of conversation creates. Keys under {@code
 * cairn.ark}: {@code history-messages}, {@code create-burst}, {@code creates-per-second}.
 *
 * @param historyMessages most messages a read of one conversation without {@code limit} answers
 *     (ARK's controller reads its history that way, once, and sends all of it to the model): a
 *     longer conversation answers its first system message and the newest messages, and says so in
 *     {@code X-Cairn-History-Omitted}; at least 2
 * @param createBurst conversation creates one caller may make at once
 * @param createsPerSecond conversation creates one caller gets back per second
 */
public record ArkSettings(int historyMessages, int createBurst, double createsPerSecond) {

    /**
     * The most a read answered before the bound existed (it then cut the newest off instead), and
     * far more turns than any model's context holds: past it the newest ones are what matter.
     */
    public static final int DEFAULT_HISTORY_MESSAGES = 10_000;

    /** Largest {@code history-messages}: every answered message is held in memory at once. */
    public static final int MAX_HISTORY_MESSAGES = 1_000_000;

    /**
     * ARK's controller creates a conversation for every new query, from one pod address and with no
     * token, and never retries: a thousand queries applied at once (a batch of evaluations) must
     * all get their conversation. The create only hands out a UUID, so this costs nothing.
     */
    public static final int DEFAULT_CREATE_BURST = 1_000;

    /** Sustained creates per caller: ten times the 20 per second that refused a busy controller. */
    public static final double DEFAULT_CREATES_PER_SECOND = 200;

    public static final ArkSettings DEFAULTS =
            new ArkSettings(
                    DEFAULT_HISTORY_MESSAGES, DEFAULT_CREATE_BURST, DEFAULT_CREATES_PER_SECOND);

    public ArkSettings {
        if (historyMessages < 2 || historyMessages > MAX_HISTORY_MESSAGES) {
            throw new IllegalArgumentException(
                    "illegal cairn.ark.history-messages: "
                            + historyMessages
                            + ", must be in [2, "
                            + MAX_HISTORY_MESSAGES
                            + "]");
        }
        if (createBurst < 1) {
            throw new IllegalArgumentException(
                    "illegal cairn.ark.create-burst: " + createBurst + ", must be >= 1");
        }
        if (!(createsPerSecond > 0) || Double.isInfinite(createsPerSecond)) {
            throw new IllegalArgumentException(
                    "illegal cairn.ark.creates-per-second: "
                            + createsPerSecond
                            + ", must be > 0 and finite");
        }
    }
}
