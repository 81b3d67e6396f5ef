package dev.cairn.server.http;

import io.helidon.webserver.http.HttpRules;

/** Routing helpers that keep unknown methods and paths inside the problem+json contract. */
public final class Routes {

    private Routes() {}

    /**
     * Answers 405 on {@code paths} for every method not routed before this call; Helidon matches
     * routes in registration order, so call it after a resource's own routes.
     */
    public static void methodNotAllowed(HttpRules rules, String... paths) {
        for (String path : paths) {
            rules.any(
                    path,
                    (req, res) -> {
                        throw HttpProblem.methodNotAllowed(
                                req.prologue().method().text(), req.path().path());
                    });
        }
    }

    /** The last route: a 404 problem for every path nothing else answered. */
    public static void notFound(HttpRules rules) {
        rules.any(
                (req, res) -> Problems.send(req, res, 404, "no resource at " + req.path().path()));
    }
}
