package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.http.Json;
import dev.cairn.store.Namespace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cairn recall "QUERY" --namespace NS [--user U | --all-users] [--json]}. */
@Command(
        name = "recall",
        description = "One memory recall with its assembled context.",
        mixinStandardHelpOptions = true)
final class RecallCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "QUERY", description = "what to recall memories about")
    String query;

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to recall from (required)")
    String namespace;

    @Option(
            names = "--user",
            paramLabel = "U",
            description =
                    "this user's memories and the shared ones (no user, no agent); default: every"
                            + " user's")
    String user;

    @Option(
            names = "--agent",
            paramLabel = "A",
            description =
                    "this agent's memories and the shared ones (no user, no agent); default:"
                            + " every agent's")
    String agent;

    @Option(
            names = "--all-users",
            description =
                    "every user's memories, in a namespace whose recallScope is 'user' (without"
                            + " --user such a namespace refuses the recall)")
    boolean allUsers;

    @Option(
            names = "--limit",
            defaultValue = "25",
            paramLabel = "N",
            description = "most memories to answer")
    int limit;

    @Option(
            names = "--max-tokens",
            defaultValue = "3500",
            paramLabel = "N",
            description = "token budget of the assembled context")
    int maxTokens;

    @Option(
            names = "--threshold",
            paramLabel = "COS",
            description = "least cosine of a memory to the query (default 0.25, the API's)")
    Double threshold;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        if (query.isBlank()) {
            throw new IllegalArgumentException("QUERY must not be blank");
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", query);
        body.put("userId", user == null ? "" : user);
        body.put("agentId", agent == null ? "" : agent);
        body.put("limit", limit);
        body.put("maxTokens", maxTokens);
        double cosine = threshold == null ? RecallRequest.DEFAULT_THRESHOLD : threshold;
        body.put("threshold", cosine);
        Optional<Namespace.RecallScope> scope =
                allUsers ? Optional.of(Namespace.RecallScope.NAMESPACE) : Optional.empty();
        scope.ifPresent(s -> body.put("scope", s.label()));
        JsonNode answer;
        RemoteOptions server = local.askedOrRunning(remote);
        if (server != null) {
            answer =
                    Json.MAPPER.readTree(
                            server.post("/v1/namespaces/" + namespace + "/recall", body));
        } else {
            RecallRequest request =
                    RecallRequest.of(namespace, query)
                            .withScope(user == null ? "" : user, agent == null ? "" : agent)
                            .withLimit(limit)
                            .withThreshold(cosine)
                            .withMaxTokens(maxTokens)
                            .withRecallScope(scope);
            try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.AT_OPEN);
                    MemoryService memory = local.openMemory(cairn)) {
                answer = Json.MAPPER.valueToTree(MemoryViews.recall(memory.recall(request)));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        System.out.printf(
                Locale.ROOT,
                "%d memories, %d context tokens, %d ms%s%n",
                answer.path("memories").size(),
                answer.path("tokens").asInt(),
                answer.path("tookMs").asLong(),
                answer.path("partial").asBoolean() ? " (partial)" : "");
        for (JsonNode person : answer.path("people")) {
            // which person the query named, and by which of their names: their memories rose
            System.out.printf(
                    Locale.ROOT,
                    "named: %s as %s (%s, %s, %s)%n",
                    person.path("userId").asText(),
                    person.path("asked").asText(),
                    person.path("name").asText(),
                    person.path("via").asText(),
                    person.path("match").asText());
        }
        List<String> facets = new ArrayList<>();
        answer.path("facets").forEach(f -> facets.add(f.asText()));
        if (!facets.isEmpty()) {
            // what a question asking for several things gathers: memories telling of it rose
            System.out.printf(
                    Locale.ROOT,
                    "gathers: %s (memories telling of %s rose)%n",
                    String.join(", ", facets),
                    facets.size() == 1 ? "it" : "them");
        }
        if (answer.path("memories").isEmpty()) {
            System.out.printf(
                    Locale.ROOT,
                    "no memory in scope reached cosine %.2f to the query (--threshold lowers it)%n",
                    cosine);
            return 0;
        }
        System.out.printf(
                Locale.ROOT,
                "%-4s %-7s %-6s %-11s %-36s %s%n",
                "#",
                "score",
                "rel",
                "type",
                "id",
                "content");
        int i = 1;
        for (JsonNode item : answer.path("memories")) {
            JsonNode m = item.path("memory");
            System.out.printf(
                    Locale.ROOT,
                    "%-4d %-7.4f %-6.3f %-11s %-36s %s%n",
                    i++,
                    item.path("score").asDouble(),
                    item.at("/components/relevance").asDouble(),
                    m.path("type").asText(),
                    m.path("id").asText(),
                    abbreviate(m.path("content").asText().replace('\n', ' '), 70));
        }
        System.out.println();
        System.out.println(answer.path("context").asText());
        return 0;
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
