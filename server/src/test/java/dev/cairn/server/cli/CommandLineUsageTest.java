package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.server.http.NearestName;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage mistakes name what was typed and the closest valid option or command. */
class CommandLineUsageTest {

    private record Outcome(int exit, String err) {}

    private static Outcome run(String... args) {
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(err, true), args);
        return new Outcome(exit, err.toString());
    }

    @Test
    void aNegativeRecencyWeightForTheLocomoEvalIsOneLineAndExitTwo(@TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("locomo.json"), "[]");
        Outcome o = run("eval", "locomo", file.toString(), "--recency-weight", "-0.1");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err().strip())
                .isEqualTo("cairn: illegal recency weight: -0.1, must be >= 0")
                .doesNotContain("\n");
    }

    @Test
    void misspelledOptionIsNamedBeforeTheMissingRequiredOne() {
        Outcome o = run("retrieve", "how?", "--namespce", "runbooks");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err())
                .contains("unknown option '--namespce'; did you mean '--namespace'?")
                .contains("cairn retrieve --help")
                .doesNotContain("Missing required option");
    }

    @Test
    void optionWithoutItsDashGetsTheDashedName() {
        Outcome o = run("retrieve", "how?", "--namespace", "ops", "--topk", "3");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("unknown option '--topk'; did you mean '--top-k'?");
    }

    @Test
    void optionWithValueAfterEqualsIsNamedWithoutTheValue() {
        Outcome o = run("recall", "what?", "--namespace=ops", "--usr=jon");
        assertThat(o.err()).contains("unknown option '--usr'; did you mean '--user'?");
    }

    @Test
    void misspelledCommandGetsTheClosestCommandAndTheList() {
        Outcome o = run("retrive", "how?", "--namespace", "ops");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err())
                .contains("unknown command 'retrive'; did you mean 'retrieve'?")
                .contains(
                        "(commands: serve, ingest, retrieve, recall, tune, export, import, migrate, backup, restore, forget, mcp, eval)")
                .doesNotContain("index 0");
    }

    @Test
    void nothingCloseMeansNoGuess() {
        Outcome o = run("retrieve", "how?", "--namespace", "ops", "--verbose-output");
        assertThat(o.err())
                .contains("unknown option '--verbose-output'")
                .doesNotContain("did you mean");
        assertThat(UsageHints.suggestion("frobnicate", List.of("serve", "ingest"))).isEmpty();
    }

    @Test
    void negativeNumbersAndNegatedOptionsAreNotUnknownOptions() {
        var spec = new picocli.CommandLine(new IngestCommand()).getCommandSpec();
        assertThat(UsageHints.unknownOption(spec, "docs", "--namespace", "x", "--no-create"))
                .isEmpty();
        var retrieve = new picocli.CommandLine(new RetrieveCommand()).getCommandSpec();
        assertThat(UsageHints.unknownOption(retrieve, "q", "--top-k", "-1")).isEmpty();
        assertThat(UsageHints.unknownOption(retrieve, "q", "--", "--not-an-option")).isEmpty();
    }

    @Test
    void editDistanceCountsATranspositionAsOneEdit() {
        assertThat(NearestName.distance("namespace", "namespce")).isEqualTo(1);
        assertThat(NearestName.distance("retrieve", "retreive")).isEqualTo(1);
        assertThat(NearestName.distance("serve", "serve")).isZero();
        assertThat(NearestName.distance("", "abc")).isEqualTo(3);
    }

    @Test
    void serverUrlWithoutSchemeIsPlainHttp() {
        assertThat(RemoteOptions.baseUri("localhost:8080"))
                .isEqualTo(URI.create("http://localhost:8080"));
        assertThat(RemoteOptions.baseUri("https://cairn.example.com/"))
                .isEqualTo(URI.create("https://cairn.example.com"));
        assertThat(RemoteOptions.baseUri(" 10.0.0.5:9000 ").resolve("/v1/namespaces"))
                .isEqualTo(URI.create("http://10.0.0.5:9000/v1/namespaces"));
        assertThatThrownBy(() -> RemoteOptions.baseUri("http://"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--server must be a URL such as localhost:8080");
    }
}
