package dev.cairn.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.server.Cairn;
import dev.cairn.server.UserForgetting;
import dev.cairn.server.api.view.ForgetView;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn forget --namespace NS --user U [--json] [--server URL --token T]}: forgets a user
 * everywhere, as {@code DELETE /v1/namespaces/{ns}/users/{userId}} does, on the server given, on
 * the one that holds the local data dir, or else in the local data dir itself (with the memory
 * index open, so its segments are purged now and not when a server next starts).
 */
@Command(
        name = "forget",
        description =
                "Forget a user everywhere: their memories and history, feedback on them, the"
                        + " transcripts they came from, their index entries and deleted pages.",
        mixinStandardHelpOptions = true)
final class ForgetCommand implements Callable<Integer> {

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace to forget the user in (required)")
    String namespace;

    @Option(
            names = "--user",
            required = true,
            paramLabel = "U",
            description = "the user id to forget (required)")
    String user;

    @Option(names = "--json", description = "print the API's JSON answer")
    boolean json;

    @Mixin LocalOptions local;

    @ArgGroup(exclusive = false)
    RemoteOptions remote;

    @Override
    public Integer call() throws IOException {
        if (user.isBlank()) {
            throw new IllegalArgumentException("--user must not be blank");
        }
        RemoteOptions server = local.askedOrRunning(remote);
        JsonNode answer;
        if (server != null) {
            answer =
                    Json.MAPPER.readTree(
                            server.delete(
                                    "/v1/namespaces/"
                                            + namespace
                                            + "/users/"
                                            + URLEncoder.encode(user, StandardCharsets.UTF_8)
                                                    .replace("+", "%20")));
        } else {
            try (Cairn cairn = local.openToRead(namespace, Cairn.EncoderLoading.ON_FIRST_USE);
                    MemoryService memory = local.openMemory(cairn)) {
                answer =
                        Json.MAPPER.valueToTree(
                                ForgetView.of(
                                        new UserForgetting(cairn.knowledge())
                                                .forget(
                                                        namespace,
                                                        user,
                                                        "cli:" + System.getProperty("user.name"))));
            }
        }
        if (json) {
            System.out.println(
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        StringBuilder counts = new StringBuilder();
        for (Map.Entry<String, JsonNode> e : answer.path("removed").properties()) {
            counts.append(counts.isEmpty() ? "" : ", ")
                    .append(e.getValue().asLong())
                    .append(' ')
                    .append(e.getKey());
        }
        System.out.println(
                "forgot user "
                        + answer.path("userId").asText()
                        + " in "
                        + answer.path("namespace").asText()
                        + ": "
                        + answer.path("total").asLong()
                        + " rows ("
                        + counts
                        + "); audit record "
                        + answer.path("id").asText());
        return 0;
    }
}
