package dev.cairn.server.cli;

import picocli.CommandLine.Command;

/** {@code cairn eval ...}: ranking and memory quality on public datasets. */
@Command(
        name = "eval",
        description = "Evaluate ranking or recall quality.",
        mixinStandardHelpOptions = true,
        subcommands = {EvalBeirCommand.class, EvalLocomoCommand.class})
final class EvalCommand implements Runnable {

    @Override
    public void run() {
        throw new IllegalArgumentException("missing dataset kind, try: cairn eval beir DIR");
    }
}
