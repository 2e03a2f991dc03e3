package dev.assay.server;

import dev.assay.AssayException;
import dev.assay.Problem;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;

/**
 * The admin token check, run before every API route: mutating calls always need the token; reads need it when the
 * server is bound to a non-loopback address. The token comes as {@code Authorization: Bearer T}, as
 * {@code X-Assay-Token: T}, or (for {@code EventSource} and download links, which cannot set headers) as the query
 * parameter {@code token} on reads only: a token in a URL ends up in histories and logs, and a link or a form on
 * another site must not be able to start or delete anything with it.
 */
final class Auth {
    private final ServerConfig config;

    Auth(ServerConfig config) {
        this.config = config;
    }

    void check(Context ctx) {
        HandlerType method = ctx.method();
        boolean mutating = !method.equals(HandlerType.GET)
                && !method.equals(HandlerType.HEAD)
                && !method.equals(HandlerType.OPTIONS);
        if (!mutating && !config.readsNeedToken()) {
            if (!loopbackHost(ctx.host())) {
                // DNS rebinding: a page from another site reaching 127.0.0.1 under its own host name gets nothing.
                throw new AssayException(
                        Problem.of("auth.bad_host", "reads without a token are served to loopback host names only")
                                .withDetail("field", "host"));
            }
            return;
        }
        String presented = presented(ctx, !mutating);
        if (presented == null) {
            String hint = mutating && ctx.queryParam("token") != null ? "; ?token= is accepted on reads only" : "";
            throw new AssayException(Problem.of(
                            "auth.missing_token",
                            "this call needs the admin token " + "(Authorization: Bearer TOKEN)" + hint)
                    .withDetail("field", "token"));
        }
        if (!AdminToken.matches(config.token(), presented)) {
            throw new AssayException(
                    Problem.of("auth.bad_token", "the admin token is wrong").withDetail("field", "token"));
        }
    }

    private boolean loopbackHost(String hostHeader) {
        if (hostHeader == null) {
            return false;
        }
        String host = hostHeader.startsWith("[")
                ? hostHeader.substring(0, hostHeader.indexOf(']') + 1)
                : hostHeader.replaceFirst(":\\d+$", "");
        return host.equals("localhost")
                || host.equals("127.0.0.1")
                || host.equals("[::1]")
                || host.equals(config.host());
    }

    private static String presented(Context ctx, boolean queryAllowed) {
        String authorization = ctx.header("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).strip();
        }
        String header = ctx.header("X-Assay-Token");
        if (header != null) {
            return header.strip();
        }
        return queryAllowed ? ctx.queryParam("token") : null;
    }
}
