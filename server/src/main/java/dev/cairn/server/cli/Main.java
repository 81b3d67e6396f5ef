package dev.cairn.server.cli;

import io.helidon.logging.common.LogConfig;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cairn}: the command line of API.md. Exit 0 on success, 2 on bad usage, 1 on failure. */
@Command(
        name = "cairn",
        mixinStandardHelpOptions = true,
        version = "cairn 0.1.0",
        description = "Hybrid knowledge retrieval and agent memory.",
        subcommands = {
            ServeCommand.class,
            IngestCommand.class,
            RetrieveCommand.class,
            RecallCommand.class,
            McpCommand.class,
            EvalCommand.class
        })
public final class Main implements Runnable {

    public static final int EXIT_USAGE = 2;
    public static final int EXIT_FAILURE = 1;

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        System.exit(run(args));
    }

    /** Runs the command line and answers its exit code. */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler(
                (e, ignored) -> {
                    PrintWriter err = e.getCommandLine().getErr();
                    err.println("cairn: " + e.getMessage());
                    err.flush();
                    return EXIT_USAGE;
                });
        cli.setExecutionExceptionHandler(
                (e, command, parsed) -> {
                    PrintWriter err = command.getErr();
                    if (e instanceof IllegalArgumentException) {
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
