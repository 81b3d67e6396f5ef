package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.server.Cairn;
import dev.cairn.server.api.LibraryRequests;
import dev.cairn.server.api.view.KnowledgeViews;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cairn retrieve "QUERY" --namespace NS [--top-k 10] [--json | --wide]}. */
@Command(
        name = "retrieve",
        description = "One retrieval, printed as a table or JSON.",
        mixinStandardHelpOptions = true)
final class RetrieveCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "QUERY", description = "what to search for")
    String query;

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to search (required)")
    String namespace;

    @Option(
            names = "--top-k",
            defaultValue = "10",
            paramLabel = "N",
            description = "how many hits to answer")
    int topK;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Option(names = "--wide", description = "whole hit texts and titles instead of a line each")
    boolean wide;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", query);
        body.put("topK", topK);
        JsonNode answer;
        RemoteOptions server = local.askedOrRunning(remote);
        if (server != null) {
            answer =
                    Json.MAPPER.readTree(
                            server.post("/v1/namespaces/" + namespace + "/retrieve", body));
        } else {
            RetrieveRequest request = LibraryRequests.retrieve(RetrieveBody.of(query, topK));
            try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.AT_OPEN)) {
                RetrieveResult result = cairn.knowledge().retrieve(namespace, request);
                answer = Json.MAPPER.valueToTree(KnowledgeViews.retrieve(result, false));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        RetrieveTable.lines(answer, wide).forEach(System.out::println);
        return 0;
    }
}
