package dev.cairn.server;

import dev.cairn.server.api.ArkRoutes;
import dev.cairn.server.api.ExtractRoutes;
import dev.cairn.server.api.FeedbackRoutes;
import dev.cairn.server.api.GovernanceModule;
import dev.cairn.server.api.GraphRoutes;
import dev.cairn.server.api.JudgeRoutes;
import dev.cairn.server.api.KnowledgeRoutes;
import dev.cairn.server.api.MemoryRoutes;
import dev.cairn.server.api.NamespaceRoutes;
import dev.cairn.server.api.OrlojRoutes;
import dev.cairn.server.api.ProposalRoutes;
import dev.cairn.server.api.SystemRoutes;
import dev.cairn.server.api.TokenRoutes;
import dev.cairn.server.api.ToolRoutes;
import dev.cairn.server.api.TranscriptRoutes;
import dev.cairn.server.api.TransferRoutes;
import dev.cairn.server.api.UserRoutes;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.http.MetricsFilter;
import dev.cairn.server.http.Problems;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestTextFilter;
import dev.cairn.server.http.Routes;
import dev.cairn.server.mcp.CairnMcp;
import dev.cairn.server.mcp.StreamableHttpTransport;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;
import java.util.List;
import java.util.stream.Stream;

/**
 * Cairn's HTTP routing, the one place every resource is registered: the web server and the routing
 * tests both build it here, so tests run against the production routes, filters and error answers.
 */
public final class CairnRouting {

    private CairnRouting() {}

    /**
     * Registers onto {@code routing}: the metrics and auth filters, the error answers, every
     * resource as an {@link io.helidon.webserver.http.HttpService}, the console's static files, and
     * last the 404 for every path no resource answers. Helidon matches in registration order, which
     * is why the order here is fixed.
     */
    public static HttpRouting.Builder register(
            HttpRouting.Builder routing, ServerComponents components) {
        routing.addFilter(new MetricsFilter(components.metrics()));
        routing.addFilter(new RequestTextFilter());
        routing.addFilter(new AuthFilter(components.tokens()));
        Problems.register(routing);
        routing.register(resources(components).toArray(HttpService[]::new));
        // The operator console: the console module's build output, in its jar under console/.
        routing.register(
                AuthFilter.CONSOLE,
                StaticContentFeature.createService(
                        ClasspathHandlerConfig.builder()
                                .location("console")
                                .welcome("index.html")
                                .build()));
        Routes.notFound(routing);
        return routing;
    }

    /**
     * Every resource in registration order, each {@link QueryParameters#strict strict} about query
     * parameters: a route takes only the ones it declares.
     */
    static List<HttpService> resources(ServerComponents components) {
        Store store = components.store();
        long maxBody = components.settings().maxBodyBytes();
        GovernanceModule governance = components.governance();
        ToolRoutes tools = ToolRoutes.all(governance, maxBody);
        // The MCP endpoint runs the same tool handlers as /v1/namespaces/{ns}/tools.
        StreamableHttpTransport mcp = new StreamableHttpTransport(CairnMcp.jsonMapper(), maxBody);
        new CairnMcp(tools, components).serve(mcp);
        // a client that left without a DELETE leaves its listening stream open until a write
        // finds it gone: a stop ends the sessions instead of waiting out its grace period
        components.onStopEnd(() -> mcp.closeGracefully().block());
        // an ARK broker keeps its message watch open for good: a stop ends the watches
        components.onStopEnd(() -> governance.transcripts().watch().endAll());
        return Stream.<HttpService>of(
                        new SystemRoutes(store, components.cairn().model(), components.metrics()),
                        new NamespaceRoutes(store, maxBody),
                        new TransferRoutes(components.knowledge()),
                        new UserRoutes(new UserForgetting(components.knowledge())),
                        new TokenRoutes(components.tokens(), maxBody),
                        new KnowledgeRoutes(components.knowledge(), maxBody),
                        new FeedbackRoutes(components.knowledge(), components.memory(), maxBody),
                        new MemoryRoutes(components.memory(), store, maxBody),
                        new ArkRoutes(
                                store,
                                governance.transcripts(),
                                maxBody,
                                components.settings().ark()),
                        new OrlojRoutes(store, governance.keyValues(), maxBody),
                        new ProposalRoutes(
                                store, governance.proposals(), governance.memory(), maxBody),
                        new ExtractRoutes(
                                store,
                                governance.extraction(),
                                governance.proposals(),
                                governance.memory(),
                                maxBody),
                        new TranscriptRoutes(store, governance.transcripts(), maxBody),
                        tools,
                        new JudgeRoutes(components.judge(), store, maxBody),
                        new GraphRoutes(
                                components.cairn().graph(), components.knowledge(), maxBody),
                        mcp)
                .map(QueryParameters::strict)
                .toList();
    }
}
