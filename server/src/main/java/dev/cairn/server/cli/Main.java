package dev.cairn.server.cli;

import io.helidon.logging.common.LogConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code cairn}: the command line of API.md. Exit 0 on success; 2 on bad usage or input (an {@link
 * IllegalArgumentException} or {@link NoSuchElementException}, or a server's 4xx answer); 1 on
 * failure (a server's 5xx, no connection, I/O).
 */
@Command(
        name = "cairn",
        mixinStandardHelpOptions = true,
        version = "cairn 0.1.0",
        description = "Hybrid knowledge retrieval and agent memory.",
        footerHeading = "%nThe ./cairn launcher also runs:%n",
        footer = {
            "  test      Run the whole test suite: ./cairn test [MAVEN ARGS] is",
            "              ./mvnw -B verify with the launcher's JDK (docs/operations.md)",
            "",
            "Exit codes: 0 success; 2 usage or input error, also when a server answers",
            "4xx to the command; 1 failure (a server's 5xx, no connection, I/O)."
        },
        subcommands = {
            ServeCommand.class,
            IngestCommand.class,
            RetrieveCommand.class,
            RecallCommand.class,
            TuneCommand.class,
            ExportCommand.class,
            ImportCommand.class,
            MigrateCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            ForgetCommand.class,
            McpCommand.class,
            EvalCommand.class
        })
public final class Main implements Runnable {

    public static final int EXIT_USAGE = 2;
    public static final int EXIT_FAILURE = 1;

    private static final String LOG_MANAGER = "java.util.logging.manager";

    /**
     * Loggers whose level a command-line call lowers. JUL holds loggers weakly, so the levels set
     * on them would be lost with the logger objects if nothing kept them.
     */
    private static final List<Logger> QUIETED = new ArrayList<>();

    /**
     * Parses first, then runs: help, version and usage errors are answered before anything slow
     * starts (PyTorch, the store); {@code serve} starts PyTorch itself once its checks pass.
     */
    public static void main(String[] args) {
        if (System.getProperty(LOG_MANAGER) == null) {
            System.setProperty(LOG_MANAGER, StoppingLogManager.class.getName());
        }
        LogConfig.configureRuntime();
        if (!servesOperators(args)) {
            quietForCommandLine();
        }
        System.exit(run(args));
    }

    /**
     * {@code serve} logs what an operator needs (schema migrations, the engine it loaded); every
     * other command prints only what was asked for, plus warnings that change its answer.
     */
    static boolean servesOperators(String... args) {
        return args.length > 0 && args[0].equals("serve");
    }

    private static void quietForCommandLine() {
        Logger cairn = Logger.getLogger("dev.cairn");
        cairn.setLevel(Level.WARNING);
        // the launcher leaves the Vector API out of short commands; Lucene's note about it is
        // advice for a server, not for one retrieve
        Logger vectorization = Logger.getLogger("org.apache.lucene.internal.vectorization");
        vectorization.setLevel(Level.SEVERE);
        QUIETED.add(cairn);
        QUIETED.add(vectorization);
    }

    /** Runs the command line and answers its exit code. */
    public static int run(String... args) {
        return run(new PrintWriter(System.err, true), args);
    }

    /** Runs the command line with usage errors and failures going to {@code err}. */
    static int run(PrintWriter err, String... args) {
        CommandLine cli = commandLine();
        cli.setErr(err);
        cli.setParameterExceptionHandler(
                (e, ignored) -> {
                    err.println("cairn: " + UsageHints.message(e, args));
                    err.flush();
                    return EXIT_USAGE;
                });
        cli.setExecutionExceptionHandler(
                (e, command, parsed) -> {
                    // what the server answers with a 4xx (bad input, not found) is the user's
                    // to fix: exit 2 here as when a server answers (RemoteOptions)
                    if (e instanceof IllegalArgumentException
                            || e instanceof NoSuchElementException) {
                        err.println("cairn: " + e.getMessage());
                        err.flush();
                        return EXIT_USAGE;
                    }
                    err.println("cairn: failed: " + firstLine(e));
                    err.flush();
                    return EXIT_FAILURE;
                });
        return cli.execute(args);
    }

    /** The command line, every command's help showing the options' defaults. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        showDefaultValues(cli);
        return cli;
    }

    /** Every option's help ends with its default, in every command. */
    private static void showDefaultValues(CommandLine command) {
        command.getCommandSpec().usageMessage().showDefaultValues(true);
        command.getSubcommands().values().forEach(Main::showDefaultValues);
    }

    private static String firstLine(Throwable e) {
        Throwable cause = e;
        while (cause.getMessage() == null && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message =
                cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                new CommandLine(this), "missing command, try: cairn serve | cairn --help");
    }
}
