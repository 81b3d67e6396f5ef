package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Every command's help says what each option does and what it is when not given. */
class CommandLineHelpTest {

    @Test
    void everyOptionOfEveryCommandHasADescriptionAndSaysItsDefault() {
        List<String> commands = new ArrayList<>();
        List<String> lacking = new ArrayList<>();
        visit(Main.commandLine(), commands, lacking);
        assertThat(commands)
                .contains(
                        "cairn serve",
                        "cairn ingest",
                        "cairn retrieve",
                        "cairn recall",
                        "cairn tune",
                        "cairn mcp",
                        "cairn eval beir",
                        "cairn eval locomo");
        assertThat(lacking).as("options without a description or a default").isEmpty();
    }

    @Test
    void theTopLevelHelpNamesTheLaunchersTestCommandAndTheExitCodes() {
        String help = Main.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help)
                .contains("  test      Run the whole test suite: ./cairn test [MAVEN ARGS]")
                .contains("Exit codes: 0 success; 2 usage or input error");
        assertThat(help.lines()).allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(80));
    }

    @Test
    void serveHelpNamesTheEnvironmentVariablesItReads() {
        String help =
                Main.commandLine()
                        .getSubcommands()
                        .get("serve")
                        .getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help)
                .contains("Environment:")
                .contains("  CAIRN_DATA_DIR ", "  CAIRN_PORT ", "  CAIRN_DB_URL ")
                .contains("  CAIRN_ADMIN_TOKEN ", "  CAIRN_JAVA_OPTS ", "  CAIRN_CDS ")
                .contains("--port=PORT", "default: 8080", "default: ./cairn-data");
    }

    private static void visit(CommandLine command, List<String> commands, List<String> lacking) {
        String name = command.getCommandSpec().qualifiedName();
        commands.add(name);
        List<ArgSpec> args = new ArrayList<>(command.getCommandSpec().positionalParameters());
        for (OptionSpec option : command.getCommandSpec().options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                args.add(option);
            }
        }
        for (ArgSpec arg : args) {
            String label = name + " " + label(arg);
            String description = String.join(" ", arg.description());
            boolean flag = arg.arity().max() == 0;
            boolean saysDefault =
                    arg.required()
                            || flag
                            || arg.defaultValue() != null
                            || description.toLowerCase(Locale.ROOT).contains("default");
            if (description.isBlank()) {
                lacking.add(label + ": no description");
            } else if (!saysDefault) {
                lacking.add(label + ": no default");
            }
        }
        command.getSubcommands().values().forEach(sub -> visit(sub, commands, lacking));
    }

    private static String label(ArgSpec arg) {
        return arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
    }
}
