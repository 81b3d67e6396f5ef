package dev.cairn.server.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Refuses control characters in the decoded request path and query before any resource or store
 * sees them: a {@code %00} in a path segment or a query parameter is a 400 on every store (the
 * PostgreSQL store cannot even compare text holding a NUL), and a {@code %0a} never reaches a log.
 * Tab, line feed and carriage return stay allowed in query values, which may be free text.
 */
public final class RequestTextFilter implements Filter {

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String problem = problem(req);
        if (problem != null) {
            Problems.send(req, res, 400, problem);
            return;
        }
        chain.proceed();
    }

    private static String problem(RoutingRequest req) {
        if (hasControl(req.path().path(), false)) {
            return "the request path contains a control character";
        }
        for (String name : req.query().names()) {
            if (hasControl(name, false)) {
                return "a query parameter name contains a control character";
            }
            for (String value : req.query().all(name)) {
                if (hasControl(value, true)) {
                    return "query parameter '"
                            + LogText.escape(name)
                            + "' contains a control character";
                }
            }
        }
        return null;
    }

    private static boolean hasControl(String text, boolean lineBreaksAllowed) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.getType(c) == Character.CONTROL
                    && !(lineBreaksAllowed && (c == '\t' || c == '\n' || c == '\r'))) {
                return true;
            }
        }
        return false;
    }
}
