package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import dev.cairn.store.PostgresTestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43, item 4: routing by namespace on an existing load balancer. Debian's nginx runs the
 * reference configuration {@code deploy/nginx/cairn.conf} itself ({@link NginxProcess}) in front of
 * three Cairn servers on one PostgreSQL schema, each a child JVM ({@link ServerProcess}) so that
 * one can be killed with SIGKILL in the middle of the load, as a machine or a process dies, which a
 * server inside this JVM cannot be. 300 namespaces get three memories each; then:
 *
 * <ul>
 *   <li>every mount that names a namespace reaches the same server for it;
 *   <li>a body past Cairn's limit is refused by Cairn (problem+json), not by nginx;
 *   <li>event streams pass through nginx as they are written;
 *   <li>each server holds the memory tables of its share of the namespaces and of no other (the
 *       resident gauges of {@code /metrics}), with maintenance running every few seconds;
 *   <li>12 clients write memories, recall and read them through nginx; one server is killed; within
 *       {@link #FAILOVER} every one of its namespaces is answered by the others, every other
 *       namespace stays where it was, every write that was acknowledged is there afterwards, and no
 *       answer is ever another namespace's or another memory's.
 * </ul>
 *
 * Skipped without nginx (fails with {@code CAIRN_REQUIRE_NGINX=1}, as CI sets after {@code
 * scripts/setup-nginx.sh}) or without PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NginxNamespaceRoutingTest {

    static final String A = CairnCalls.ADMIN;
    static final int SERVERS = 3;
    static final int NAMESPACES = 300;

    /** The bound: a killed server's namespaces are answered by the others within this. */
    static final Duration FAILOVER = Duration.ofSeconds(10);

    /**
     * The least and most of the namespaces one of three servers may be given. nginx's ring has 160
     * points per server, so a server's expected share is a third, give or take 2-3 points from the
     * ring and as much from 300 names (a binomial's standard deviation, 8 names); the ports, and so
     * the ring, change from run to run. 20% and 50% are more than four deviations away: a server
     * outside them means the hashing is not spreading namespaces.
     */
    static final double LEAST_SHARE = 0.20;

    static final double MOST_SHARE = 0.50;

    /** Concurrent clients of the mixed load. */
    static final int CLIENTS = 12;

    static final Duration LOAD_BEFORE_KILL = Duration.ofSeconds(8);

    /** Longer than {@link #FAILOVER}, so requests after it are checked too. */
    static final Duration LOAD_AFTER_KILL = Duration.ofSeconds(15);

    /** Maintenance visits every namespace; it must not make a server load the others' tables. */
    static final int MAINTENANCE_SECONDS = 10;

    static final long SEED = 43;

    static final List<String> PEOPLE =
            words(
                    "Amara, Bogdan, Chiara, Dmitri, Esther, Farid, Greta, Hiroshi, Ingrid, Jonas,"
                            + " Keiko, Lorenzo, Mireille, Nikhil, Olga, Pedro");
    static final List<String> THINGS =
            words(
                    "ladder, umbrella, toolbox, kettle, telescope, violin, lantern, compass,"
                            + " typewriter, hammock, skateboard, microscope");
    static final List<String> PLACES =
            words(
                    "attic, garage, cellar, greenhouse, boathouse, pantry, studio, workshop, barn,"
                            + " loft, shed, library");
    static final List<String> COLOURS =
            words("red, green, yellow, silver, purple, orange, white, black");
    static final List<String> VEHICLES =
            words("ferry, tram, night bus, cable car, train, shuttle, coach");
    static final List<String> CITIES =
            words(
                    "Lisbon, Tallinn, Porto, Bergen, Gdansk, Valencia, Ljubljana, Tromso, Bilbao, Riga");
    static final List<String> DAYS =
            words("Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday");
    static final List<String> FRUIT =
            words("apricots, quinces, figs, plums, mangoes, cherries, lychees, pears");
    static final List<String> MONTHS =
            words("March, April, May, June, July, August, October, November");
    static final List<String> SERVICES =
            words("billing, search, checkout, ledger, gateway, inventory, mailer");
    static final List<String> ERRORS =
            words(
                    "an expired certificate, a full disk, a schema mismatch, an out-of-memory kill,"
                            + " a DNS timeout, a missing secret");

    @TempDir static Path temp;

    PostgresTestDatabase database;
    final List<ServerProcess> servers = new ArrayList<>();
    NginxProcess nginx;
    final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();

    /** Per namespace, its three memories as written before any test. */
    final Map<String, List<Written>> seeds = new TreeMap<>();

    /** A memory the test wrote: where, its id, its text, and whether it was folded into another. */
    record Written(String namespace, String id, String content, boolean deduplicated) {}

    /** An answer through nginx: status, which server answered, body. */
    record Answer(int status, String upstream, String body) {

        boolean ok() {
            return status / 100 == 2;
        }

        /** The server that answered: the last address nginx tried ({@code a, b} after a retry). */
        String server() {
            int comma = upstream.lastIndexOf(',');
            return (comma < 0 ? upstream : upstream.substring(comma + 1)).strip();
        }

        JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }
    }

    @BeforeAll
    void start() throws Exception {
        if (!NginxProcess.present() || !PostgresTestDatabase.available()) {
            return; // each test skips (or fails) on its own, so it is counted
        }
        long started = System.nanoTime();
        database = PostgresTestDatabase.create();
        // Three servers share the machine's cores, so each gets one intra-op thread, as
        // operations.md tells operators to do: with one per core each, the three PyTorch thread
        // pools spin against each other and seeding took 122 s instead of 25 s.
        for (int i = 0; i < SERVERS; i++) {
            servers.add(
                    ServerProcess.start(
                            temp.resolve("server-" + i),
                            temp.resolve("server-" + i + ".log"),
                            A,
                            List.of(
                                    "-Dcairn.memory.maintenance.interval-seconds="
                                            + MAINTENANCE_SECONDS,
                                    "-Dai.djl.pytorch.num_threads=1"),
                            List.of("--db-url", database.jdbcUrl())));
        }
        for (ServerProcess s : servers) {
            s.awaitReady();
        }
        long ready = System.nanoTime();
        nginx = NginxProcess.start(servers.stream().map(ServerProcess::port).toList());
        double[] took = seed();
        System.out.printf(
                "[nginx routing] 3 servers ready in %.1f s; through nginx, %d namespaces created"
                        + " in %.1f s and given 3 memories each in %.1f s%n",
                (ready - started) / 1e9, NAMESPACES, took[0], took[1]);
    }

    @BeforeEach
    void requireNginxAndPostgres() {
        NginxProcess.assumePresent();
        PostgresTestDatabase.assumeAvailable();
    }

    @AfterAll
    void stop() {
        try {
            if (nginx != null) {
                nginx.close();
            }
            servers.forEach(ServerProcess::close);
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Test
    @Order(1)
    void everyMountThatNamesANamespaceReachesTheSameServer() throws Exception {
        Set<String> serversSeen = new TreeSet<>();
        for (String ns : seeds.keySet().stream().limit(12).toList()) {
            Answer recall = recall(ns, seeds.get(ns).get(0).content());
            assertThat(recall.status()).isEqualTo(200);
            String home = recall.server();
            serversSeen.add(home);
            for (String[] call :
                    List.of(
                            new String[] {"GET", "/v1/namespaces/" + ns},
                            new String[] {"GET", "/v1/namespaces/" + ns + "/memories?limit=1"},
                            new String[] {"GET", "/ark/" + ns + "/health"},
                            new String[] {"GET", "/ark/" + ns + "/memory-status"},
                            new String[] {"GET", "/orloj/" + ns + "/ping"},
                            new String[] {"DELETE", "/mcp/" + ns})) {
                Answer answer = send(call[0], call[1], null);
                assertThat(answer.status())
                        .as("%s %s: %s", call[0], call[1], answer.body())
                        .isLessThan(500);
                assertThat(answer.server()).as("%s %s", call[0], call[1]).isEqualTo(home);
            }
        }
        assertThat(serversSeen).as("12 namespaces all on one server").hasSizeGreaterThan(1);
    }

    @Test
    @Order(2)
    void aBodyPastCairnsLimitIsRefusedByCairnNotByNginx() throws Exception {
        String ns = seeds.keySet().iterator().next();
        String content = "x".repeat(10 * 1024 * 1024 + 512 * 1024); // 10.5 MiB, under nginx's 11m
        Answer a = send("POST", "/v1/namespaces/" + ns + "/memories", memory(content));
        assertThat(a.status()).isEqualTo(413);
        assertThat(a.upstream()).as("a server answered, not nginx").isNotEmpty();
        assertThat(a.json().path("status").asInt()).as(a.body()).isEqualTo(413);
    }

    @Test
    @Order(3)
    void eventStreamsPassThroughNginxAsTheyAreWritten() throws Exception {
        String ns = seeds.keySet().iterator().next();
        HttpResponse<InputStream> watch =
                http.send(
                        request("GET", "/ark/" + ns + "/messages?watch=true", null).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader =
                Thread.ofVirtual()
                        .name("sse-reader")
                        .start(
                                () -> {
                                    try (BufferedReader in =
                                            new BufferedReader(
                                                    new InputStreamReader(
                                                            watch.body(),
                                                            StandardCharsets.UTF_8))) {
                                        for (String l; (l = in.readLine()) != null; ) {
                                            lines.add(l);
                                        }
                                    } catch (IOException e) {
                                        // closed below
                                    }
                                });
        try {
            assertThat(watch.statusCode()).isEqualTo(200);
            assertThat(lines.poll(3, TimeUnit.SECONDS)).isEqualTo(": connected");
            Answer posted =
                    send(
                            "POST",
                            "/ark/" + ns + "/messages",
                            "{\"conversation_id\":\"c-through-nginx\",\"query_id\":\"q-1\","
                                    + "\"messages\":[{\"role\":\"user\",\"content\":\"the"
                                    + " lighthouse keeper waves\"}]}");
            assertThat(posted.status()).as(posted.body()).isEqualTo(200);
            String event = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (event == null && System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith("data: ")) {
                    event = line;
                }
            }
            assertThat(event).as("the message's event within 3 s").contains("lighthouse keeper");
        } finally {
            watch.body().close();
            reader.interrupt();
        }
    }

    @Test
    @Order(4)
    void eachServerHoldsTheMemoryTablesOfItsShareOfTheNamespacesAndNoOthers() throws Exception {
        Map<String, Long> maintained = metricOfEach("cairn_memory_maintenance_runs_total");
        Map<String, String> owners = sweep();
        Map<String, Long> shares = countByServer(owners);
        System.out.println("[nginx routing] namespaces per server: " + shares);
        assertThat(shares).hasSize(SERVERS);
        shares.forEach(
                (server, n) ->
                        assertThat(n)
                                .as("namespaces on %s", server)
                                .isBetween(
                                        Math.round(LEAST_SHARE * NAMESPACES),
                                        Math.round(MOST_SHARE * NAMESPACES)));
        // a maintenance run over every namespace on every server since the sweep began
        Waits.until(
                () ->
                        metricOfEach("cairn_memory_maintenance_runs_total").entrySet().stream()
                                .allMatch(e -> e.getValue() > maintained.get(e.getKey())),
                Duration.ofSeconds(3L * MAINTENANCE_SECONDS));
        assertThat(metricOfEach("cairn_memory_maintenance_runs_total"))
                .allSatisfy(
                        (server, runs) ->
                                assertThat(runs)
                                        .as("maintenance runs on %s", server)
                                        .isGreaterThan(maintained.get(server)));
        Map<String, Long> resident = metricOfEach("cairn_memory_resident_namespaces");
        System.out.println(
                "[nginx routing] resident namespaces: "
                        + resident
                        + ", bytes: "
                        + metricOfEach("cairn_memory_resident_bytes"));
        assertThat(resident).isEqualTo(shares);
    }

    @Test
    @Order(5)
    void aKilledServersNamespacesAreAnsweredByTheOthersWithNoWriteLostAndNoWrongAnswer()
            throws Exception {
        Map<String, String> before = sweep();
        ServerProcess victim = servers.get(1);
        String dead = address(victim);
        List<String> orphans =
                before.entrySet().stream()
                        .filter(e -> e.getValue().equals(dead))
                        .map(Map.Entry::getKey)
                        .toList();
        assertThat(orphans).isNotEmpty();

        Load load = new Load();
        long loadStarted = System.nanoTime();
        ExecutorService clients =
                Executors.newFixedThreadPool(
                        CLIENTS, Thread.ofVirtual().name("load-client-", 0).factory());
        long loadEnds = loadStarted + LOAD_BEFORE_KILL.toNanos() + LOAD_AFTER_KILL.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Random random = new Random(SEED * 31 + c);
            running.add(clients.submit(() -> load.run(random, loadEnds)));
        }
        Thread.sleep(LOAD_BEFORE_KILL.toMillis());
        long killed = System.nanoTime();
        load.killedAt = killed;
        victim.kill();

        // each of the dead server's namespaces, asked until it answers rightly
        Map<String, Long> answeredAfter = new ConcurrentHashMap<>();
        AtomicInteger askedAgain = new AtomicInteger();
        ExecutorService probes =
                Executors.newFixedThreadPool(4, Thread.ofVirtual().name("probe-", 0).factory());
        for (String ns : orphans) {
            probes.submit(
                    () -> {
                        Written seed = seeds.get(ns).get(1);
                        while (System.nanoTime() - killed < 2 * FAILOVER.toNanos()) {
                            try {
                                Answer a = recall(ns, seed.content());
                                if (a.ok() && recallProblem(ns, seed, a) == null) {
                                    answeredAfter.put(ns, System.nanoTime() - killed);
                                    return null;
                                }
                            } catch (IOException e) {
                                // asked again
                            }
                            askedAgain.incrementAndGet();
                            Thread.sleep(50);
                        }
                        return null;
                    });
        }
        probes.shutdown();
        assertThat(probes.awaitTermination(3 * FAILOVER.toSeconds(), TimeUnit.SECONDS)).isTrue();
        for (Future<?> f : running) {
            f.get(LOAD_AFTER_KILL.toSeconds() + 60, TimeUnit.SECONDS);
        }
        clients.shutdown();
        long slowest = answeredAfter.values().stream().mapToLong(Long::longValue).max().orElse(0);
        System.out.printf(
                "[nginx routing] load: %s; the %d namespaces of the killed server, asked by 4"
                        + " clients, answered again from %.2f s to %.2f s after the kill, %d"
                        + " answers not right at first; nginx's error log: %s%n",
                load.summary(),
                orphans.size(),
                answeredAfter.values().stream().mapToLong(Long::longValue).min().orElse(0) / 1e9,
                slowest / 1e9,
                askedAgain.get(),
                errorLogTally());

        assertThat(load.wrong).as("wrong answers").isEmpty();
        assertThat(load.failedBeforeKill).as("failures before the kill").isEmpty();
        assertThat(load.failedPastFailover)
                .as("failures of requests sent %s or more after the kill", FAILOVER)
                .isEmpty();
        assertThat(answeredAfter.keySet())
                .as("the killed server's namespaces answered again")
                .containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(slowest).as("the last one, in ns").isLessThanOrEqualTo(FAILOVER.toNanos());
        assertThat(load.acknowledged.size())
                .as("writes acknowledged before and after the kill")
                .isGreaterThan(50);
        assertThat(load.acknowledgedAfterKill.get()).isPositive();

        everyAcknowledgedWriteIsThere(load);

        Map<String, String> after = sweep();
        before.forEach(
                (ns, server) -> {
                    if (server.equals(dead)) {
                        assertThat(after.get(ns)).as(ns).isNotEqualTo(dead);
                    } else {
                        assertThat(after.get(ns))
                                .as("%s stays on its server", ns)
                                .isEqualTo(server);
                    }
                });
        Map<String, Long> shares = countByServer(after);
        Map<String, Long> resident =
                new TreeMap<>(metricOfEach("cairn_memory_resident_namespaces"));
        System.out.println(
                "[nginx routing] after the kill, namespaces per server: "
                        + shares
                        + ", resident: "
                        + resident);
        assertThat(resident).isEqualTo(shares);
    }

    /** The mixed load: each client writes, recalls and reads in random namespaces until the end. */
    final class Load {
        final List<Written> acknowledged = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger acknowledgedAfterKill = new AtomicInteger();
        final Queue<String> wrong = new ConcurrentLinkedQueue<>();
        final Queue<String> failedBeforeKill = new ConcurrentLinkedQueue<>();
        final Queue<String> failedInFailover = new ConcurrentLinkedQueue<>();
        final Queue<String> failedPastFailover = new ConcurrentLinkedQueue<>();
        final Map<String, AtomicInteger> done = new ConcurrentHashMap<>();
        final AtomicInteger ticket = new AtomicInteger();
        final List<String> names = List.copyOf(seeds.keySet());
        volatile long killedAt = Long.MAX_VALUE;

        Void run(Random random, long endsAt) throws InterruptedException {
            while (System.nanoTime() < endsAt) {
                String ns = names.get(random.nextInt(names.size()));
                double dice = random.nextDouble();
                String kind = dice < 0.3 ? "write" : dice < 0.75 ? "recall" : "read";
                long sent = System.nanoTime();
                String problem;
                try {
                    problem =
                            switch (kind) {
                                case "write" -> write(ns, random, sent);
                                case "recall" -> {
                                    Written seed = seeds.get(ns).get(random.nextInt(3));
                                    Answer a = recall(ns, seed.content());
                                    yield a.ok() ? wrongIf(recallProblem(ns, seed, a)) : fail(a);
                                }
                                default -> read(ns, random);
                            };
                } catch (IOException e) {
                    problem = "no answer: " + e;
                }
                done.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                long ended = System.nanoTime();
                if (problem != null && !problem.startsWith("WRONG ")) {
                    // a request the killed server held fails after the kill, whenever it was sent
                    String what = kind + " in " + ns + ": " + problem;
                    if (ended < killedAt) {
                        failedBeforeKill.add(what);
                    } else if (sent - killedAt < FAILOVER.toNanos()) {
                        failedInFailover.add(
                                what
                                        + String.format(
                                                " (sent %+.2f s, answered %+.2f s from the kill)",
                                                (sent - killedAt) / 1e9, (ended - killedAt) / 1e9));
                    } else {
                        failedPastFailover.add(
                                what
                                        + String.format(
                                                " (%.1f s after the kill)",
                                                (sent - killedAt) / 1e9));
                    }
                } else if (problem != null) {
                    wrong.add(kind + " in " + ns + ": " + problem.substring(6));
                }
            }
            return null;
        }

        private String write(String ns, Random random, long sent)
                throws IOException, InterruptedException {
            String content =
                    String.format(
                            "Ticket %d: the %s deploy failed on host %s-%d with %s.",
                            ticket.incrementAndGet(),
                            pick(random, SERVICES),
                            pick(random, CITIES).toLowerCase(java.util.Locale.ROOT),
                            random.nextInt(90) + 10,
                            pick(random, ERRORS));
            Answer a = send("POST", "/v1/namespaces/" + ns + "/memories", memory(content));
            if (!a.ok()) {
                return fail(a);
            }
            JsonNode m = a.json();
            boolean folded = a.status() == 200 && m.has("deduplicatedInto");
            if (!m.path("namespace").asText().equals(ns)
                    || (!folded && !m.path("content").asText().equals(content))) {
                return "WRONG the write answered " + a.body();
            }
            acknowledged.add(new Written(ns, m.path("id").asText(), content, folded));
            if (sent >= killedAt) {
                acknowledgedAfterKill.incrementAndGet();
            }
            return null;
        }

        private String read(String ns, Random random) throws IOException, InterruptedException {
            Written target = seeds.get(ns).get(random.nextInt(3));
            synchronized (acknowledged) {
                if (!acknowledged.isEmpty() && random.nextBoolean()) {
                    target = acknowledged.get(random.nextInt(acknowledged.size()));
                }
            }
            Answer a =
                    send(
                            "GET",
                            "/v1/namespaces/" + target.namespace() + "/memories/" + target.id(),
                            null);
            return a.ok() ? wrongIf(readProblem(target, a)) : fail(a);
        }

        String summary() {
            return done
                    + String.format(
                            ", %d writes acknowledged (%d sent after the kill), failures: %d"
                                    + " before the kill, %d in the %d s after it, %d later; %d"
                                    + " wrong",
                            acknowledged.size(),
                            acknowledgedAfterKill.get(),
                            failedBeforeKill.size(),
                            failedInFailover.size(),
                            FAILOVER.toSeconds(),
                            failedPastFailover.size(),
                            wrong.size())
                    + (failedInFailover.isEmpty() ? "" : "; in the failover: " + failedInFailover);
        }
    }

    /** How often nginx logged each kind of upstream trouble. */
    private String errorLogTally() {
        String log = nginx.errorLog();
        Map<String, Long> tally = new TreeMap<>();
        for (String kind :
                List.of(
                        "connect() failed",
                        "prematurely closed",
                        "reset by peer",
                        "temporarily disabled",
                        "no live upstreams")) {
            tally.put(kind, log.lines().filter(l -> l.contains(kind)).count());
        }
        return tally.toString();
    }

    private static String wrongIf(String problem) {
        return problem == null ? null : "WRONG " + problem;
    }

    private static String fail(Answer a) {
        String body = a.body().strip();
        int title = body.indexOf("<title>");
        String said =
                title >= 0
                        ? body.substring(title + 7, body.indexOf('<', title + 7))
                        : body.substring(0, Math.min(body.length(), 200));
        return a.status() + " from " + a.upstream() + ": " + said;
    }

    /** Every write that got a 2xx is found by id through nginx, in its namespace, as written. */
    private void everyAcknowledgedWriteIsThere(Load load) throws Exception {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        inParallel(
                List.copyOf(load.acknowledged),
                w -> {
                    Answer a =
                            send(
                                    "GET",
                                    "/v1/namespaces/" + w.namespace() + "/memories/" + w.id(),
                                    null);
                    String problem = a.ok() ? readProblem(w, a) : fail(a);
                    if (problem != null) {
                        lost.add(w + ": " + problem);
                    }
                });
        assertThat(lost).as("acknowledged writes not found as written").isEmpty();

        // and recall finds them on whichever server answers their namespace now
        List<Written> sample = new ArrayList<>(load.acknowledged);
        sample.removeIf(Written::deduplicated);
        Collections.shuffle(sample, new Random(SEED));
        for (Written w : sample.subList(0, Math.min(30, sample.size()))) {
            String[] problem = {"not asked"};
            Waits.until(
                    () -> {
                        try {
                            Answer a = recall(w.namespace(), w.content());
                            problem[0] = a.ok() ? recallProblem(w.namespace(), w, a) : fail(a);
                        } catch (IOException | InterruptedException e) {
                            problem[0] = e.toString();
                        }
                        return problem[0] == null;
                    },
                    Duration.ofSeconds(5));
            assertThat(problem[0]).as("recall of acknowledged write %s", w).isNull();
        }
    }

    /** What is wrong with a recall for {@code expected}'s exact text in {@code ns}, or null. */
    private static String recallProblem(String ns, Written expected, Answer a) {
        JsonNode answer = a.json();
        JsonNode memories = answer.path("memories");
        if (answer.path("partial").asBoolean()) {
            return "partial answer " + a.body();
        }
        if (memories.isEmpty()) {
            return "no memory for " + expected;
        }
        for (JsonNode m : memories) {
            if (!m.path("memory").path("namespace").asText().equals(ns)) {
                return "a memory of another namespace: " + m;
            }
        }
        String first = memories.get(0).path("memory").path("id").asText();
        return first.equals(expected.id())
                ? null
                : "first " + first + ", not " + expected + ", from " + a.server();
    }

    /** What is wrong with a GET of {@code expected}, or null. */
    private static String readProblem(Written expected, Answer a) {
        JsonNode m = a.json();
        boolean same =
                m.path("id").asText().equals(expected.id())
                        && m.path("namespace").asText().equals(expected.namespace())
                        && (expected.deduplicated()
                                || m.path("content").asText().equals(expected.content()));
        return same ? null : "read " + a.body() + " for " + expected;
    }

    /**
     * Recalls one seed memory in every namespace through nginx (8 at a time), checks each answer,
     * and answers which server answered each namespace.
     */
    private Map<String, String> sweep() throws Exception {
        Map<String, String> owners = new ConcurrentHashMap<>();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<String> names = List.copyOf(seeds.keySet());
        inParallel(
                names,
                ns -> {
                    Written seed = seeds.get(ns).get(names.indexOf(ns) % 3);
                    Answer a = recall(ns, seed.content());
                    String problem = a.ok() ? recallProblem(ns, seed, a) : fail(a);
                    if (problem != null) {
                        problems.add(ns + ": " + problem);
                    }
                    owners.put(ns, a.server());
                });
        assertThat(problems).as("sweep of every namespace").isEmpty();
        assertThat(owners).hasSize(NAMESPACES);
        return new TreeMap<>(owners);
    }

    /**
     * Creates the namespaces, then gives each three memories of three unlike kinds, through nginx,
     * 8 requests at a time; answers how long each step took, in seconds.
     */
    private double[] seed() throws Exception {
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<String> names =
                IntStream.range(0, NAMESPACES)
                        .mapToObj(n -> String.format("route-%03d", n))
                        .toList();
        long started = System.nanoTime();
        inParallel(
                names,
                ns -> {
                    Answer a =
                            send(
                                    "POST",
                                    "/v1/namespaces",
                                    "{\"name\":\"" + ns + "\",\"recallScope\":\"namespace\"}");
                    if (a.status() != 201) {
                        problems.add(ns + ": " + fail(a));
                    }
                });
        long created = System.nanoTime();
        Map<String, Written[]> written = new ConcurrentHashMap<>();
        record Draft(String namespace, int slot, String content) {}
        List<Draft> drafts = new ArrayList<>();
        for (int n = 0; n < NAMESPACES; n++) {
            written.put(names.get(n), new Written[3]);
            List<String> texts = seedTexts(new Random(SEED + n));
            for (int slot = 0; slot < texts.size(); slot++) {
                drafts.add(new Draft(names.get(n), slot, texts.get(slot)));
            }
        }
        inParallel(
                drafts,
                d -> {
                    Answer a =
                            send(
                                    "POST",
                                    "/v1/namespaces/" + d.namespace() + "/memories",
                                    memory(d.content()));
                    if (a.status() != 201) {
                        problems.add(d.namespace() + ": " + fail(a));
                        return;
                    }
                    written.get(d.namespace())[d.slot()] =
                            new Written(
                                    d.namespace(),
                                    a.json().path("id").asText(),
                                    d.content(),
                                    false);
                });
        assertThat(problems).as("seeding").isEmpty();
        written.forEach((ns, three) -> seeds.put(ns, List.of(three)));
        return new double[] {(created - started) / 1e9, (System.nanoTime() - created) / 1e9};
    }

    /** What one request of a batch does; it may fail with the exceptions a request can. */
    interface Call<T> {
        void run(T item) throws IOException, InterruptedException;
    }

    /**
     * Runs {@code call} for each item, 8 at a time, and returns when every one has; the first
     * exception one threw is thrown.
     */
    private static <T> void inParallel(List<T> items, Call<T> call) throws Exception {
        List<Future<Void>> calls = new ArrayList<>();
        try (ExecutorService pool =
                Executors.newFixedThreadPool(8, Thread.ofVirtual().name("batch-", 0).factory())) {
            for (T item : items) {
                calls.add(
                        pool.submit(
                                () -> {
                                    call.run(item);
                                    return null;
                                }));
            }
        }
        for (Future<Void> f : calls) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    private static List<String> seedTexts(Random r) {
        return List.of(
                String.format(
                        "%s keeps the spare %s in the %s.",
                        pick(r, PEOPLE), pick(r, THINGS), pick(r, PLACES)),
                String.format(
                        "The %s %s leaves %s every %s at %d o'clock.",
                        pick(r, COLOURS),
                        pick(r, VEHICLES),
                        pick(r, CITIES),
                        pick(r, DAYS),
                        r.nextInt(12) + 1),
                String.format(
                        "Invoice %d for %d crates of %s is due in %s.",
                        r.nextInt(9000) + 1000,
                        r.nextInt(90) + 10,
                        pick(r, FRUIT),
                        pick(r, MONTHS)));
    }

    private static List<String> words(String commaSeparated) {
        return List.of(commaSeparated.split(", "));
    }

    private static String pick(Random r, List<String> words) {
        return words.get(r.nextInt(words.size()));
    }

    private static String memory(String content) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("type", "fact").put("content", content);
        return body.toString();
    }

    private Answer recall(String ns, String query) throws IOException, InterruptedException {
        ObjectNode body = Json.MAPPER.createObjectNode();
        // a deadline far past what two loaded cores need, so an answer is never partial
        body.put("query", query).put("scope", "namespace").put("limit", 5).put("timeoutMs", 20000);
        return send("POST", "/v1/namespaces/" + ns + "/recall", body.toString());
    }

    private Answer send(String method, String path, String body)
            throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        request(method, path, body).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(
                r.statusCode(), r.headers().firstValue("X-Cairn-Upstream").orElse(""), r.body());
    }

    private HttpRequest.Builder request(String method, String path, String body) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(nginx.url().resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + A)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return b;
    }

    private static String address(ServerProcess s) {
        return "127.0.0.1:" + s.port();
    }

    private static Map<String, Long> countByServer(Map<String, String> owners) {
        return new TreeMap<>(
                owners.values().stream()
                        .collect(
                                Collectors.groupingBy(Function.identity(), Collectors.counting())));
    }

    private static final Pattern SAMPLE = Pattern.compile("(?m)^(\\w+)(?:\\{[^}]*\\})? (\\S+)$");

    /** A metric of each live server, straight from its /metrics (not through nginx), by address. */
    private Map<String, Long> metricOfEach(String name) {
        Map<String, Long> out = new TreeMap<>();
        for (ServerProcess s : servers) {
            if (!s.alive()) {
                continue;
            }
            try {
                String text =
                        http.send(
                                        HttpRequest.newBuilder(s.url().resolve("/metrics")).build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body();
                double sum = 0;
                Matcher m = SAMPLE.matcher(text);
                while (m.find()) {
                    if (m.group(1).equals(name)) {
                        sum += Double.parseDouble(m.group(2));
                    }
                }
                out.put(address(s), Math.round(sum));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return out;
    }
}
