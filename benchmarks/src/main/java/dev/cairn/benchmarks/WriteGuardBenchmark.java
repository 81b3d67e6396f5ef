package dev.cairn.benchmarks;

import dev.cairn.safety.SecretRedactor;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteTarget;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every write pays before it is stored: the injection check and secret redaction of one text
 * ({@link WriteGuard#apply}), and the redaction alone, which the transcript writer runs over every
 * string and key of a message's JSON. Texts: a chat turn, a role name (the shortest string a
 * message carries), a runbook paragraph of about 1.5 KB, and a turn holding a token.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar WriteGuardBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class WriteGuardBenchmark {

    static final String TURN =
            "omg finally finished the last game of the trilogy last night, took me like 60 hours"
                    + " lol. heading to the gym tomorrow morning if you want to come?";

    static final String ROLE = "assistant";

    static final String PARAGRAPH =
            """
            When the checkout service reports a spike in 502 responses, first look at the \
            gateway's upstream health page and confirm which pods are failing their readiness \
            probe. If only one zone is affected, drain it from the load balancer with the \
            runbook's drain script and page the platform on-call. A full disk on the ledger \
            database shows up as slow commits before it shows up as errors: check the WAL \
            volume's free space and the replication lag on the standby, and never delete WAL \
            segments by hand. Rotating the payment provider's credentials is done through the \
            secrets manager, not by editing the deployment; the new version is picked up at the \
            next rolling restart, which takes about ten minutes across all regions. After the \
            incident, write the timeline in the postmortem template, link the dashboards you \
            used, and file follow-up tickets for every manual step that could be automated, \
            tagging them with the service name and the severity of the incident that caused \
            them. Keep the status page updated every thirty minutes until the all-clear.""";

    static final String WITH_TOKEN =
            "here's the bot token for the staging slack: xoxb-9416511095572-9491153706802"
                    + "-o3ppD7o7T3ZJYmdCH721FCHx, don't share it";

    @Param({"turn", "role", "paragraph", "token"})
    String text;

    String input;
    final WriteGuard guard = WriteGuard.standard();
    final SecretRedactor redactor = SecretRedactor.standard();

    @Setup
    public void setUp() {
        input =
                switch (text) {
                    case "turn" -> TURN;
                    case "role" -> ROLE;
                    case "paragraph" -> PARAGRAPH;
                    case "token" -> WITH_TOKEN;
                    default -> throw new IllegalArgumentException(text);
                };
    }

    @Benchmark
    public WriteGuard.Guarded guard() {
        return guard.apply(input, WriteTarget.MEMORY);
    }

    @Benchmark
    public String redact() {
        return redactor.redact(input).text();
    }
}
