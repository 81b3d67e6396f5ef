package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.body.RetrieveBody;
import dev.cairn.server.api.view.RetrieveAnswer;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cairn retrieve "QUERY" --namespace NS [--top-k 10] [--json]}. */
@Command(
        name = "retrieve",
        description = "One retrieval, printed as a table or JSON.",
        mixinStandardHelpOptions = true)
final class RetrieveCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "QUERY")
    String query;

    @Option(names = "--namespace", required = true, paramLabel = "NS")
    String namespace;

    @Option(names = "--top-k", defaultValue = "10", paramLabel = "N")
    int topK;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", query);
        body.put("topK", topK);
        JsonNode answer;
        if (remote != null && remote.remote()) {
            answer =
                    Json.MAPPER.readTree(
                            remote.post("/v1/namespaces/" + namespace + "/retrieve", body));
        } else {
            RetrieveRequest request = RetrieveBody.of(query, topK).toRequest();
            try (Cairn cairn = local.open()) {
                RetrieveResult result = cairn.knowledge().retrieve(namespace, request);
                answer = Json.MAPPER.valueToTree(RetrieveAnswer.of(result, false));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        System.out.printf(
                Locale.ROOT,
                "plan %s, grounding %.2f, %.0f ms%n",
                answer.path("plan").asText(),
                answer.path("grounding").asDouble(),
                answer.at("/timings/totalMs").asDouble());
        System.out.printf(
                Locale.ROOT,
                "%-4s %-8s %-6s %-6s %-36s %s%n",
                "#",
                "score",
                "lex",
                "dense",
                "chunk",
                "title / heading");
        int i = 1;
        for (JsonNode hit : answer.path("hits")) {
            System.out.printf(
                    Locale.ROOT,
                    "%-4d %-8.4f %-6s %-6s %-36s %s%n",
                    i++,
                    hit.path("score").asDouble(),
                    rank(hit, "lexical"),
                    rank(hit, "dense"),
                    abbreviate(hit.path("chunkId").asText(), 36),
                    abbreviate(
                            hit.path("title").asText() + " / " + hit.path("heading").asText(), 60));
        }
        return 0;
    }

    private static String rank(JsonNode hit, String signal) {
        JsonNode r = hit.path("ranks").path(signal);
        return r.isMissingNode() ? "-" : r.asText();
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
