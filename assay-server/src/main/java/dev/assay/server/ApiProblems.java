package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one translation of failures to HTTP: a JSON body {@code {type, title, status, detail, field}} with the status
 * from {@link #status}. Unexpected exceptions are logged here and reach the client only as {@code server.internal} with
 * no stack trace. The handlers never throw: Javalin answers an exception thrown by a handler with another call of the
 * handlers, so on a request Jetty has already recycled (a stream ending after its client or the server went away) a
 * throwing handler loops forever.
 */
final class ApiProblems {
    private static final Logger LOG = LoggerFactory.getLogger(ApiProblems.class);

    private ApiProblems() {}

    static AssayException badField(String field, String message) {
        return new AssayException(Problem.of("request.invalid_field", message).withDetail("field", field));
    }

    static AssayException notFound(String runId) {
        return new AssayException(
                Problem.of("run.not_found", "no run with id " + runId).withDetail("field", "run_id"));
    }

    /**
     * The type-to-status table: callers' mistakes are 4xx; a sandbox this host cannot give right now is 503, as
     * retrying after its engine or image is set up can succeed; everything unexpected is 500.
     */
    static int status(String type) {
        if (type.equals("sandbox.unavailable")) {
            return 503;
        }
        if (type.startsWith("auth.")) {
            return 401;
        }
        if (type.endsWith(".not_found")) {
            return 404;
        }
        if (type.equals("run.still_running")
                || type.equals("run.not_running")
                || type.equals("run.not_resumable")
                || type.equals("run.suite_changed")) {
            return 409;
        }
        if (type.equals("request.too_large")) {
            return 413;
        }
        if (type.equals("request.not_acceptable")) {
            return 406;
        }
        if (type.startsWith("request.")
                || type.startsWith("config.")
                || type.startsWith("suite.")
                || type.startsWith("case.")
                || type.startsWith("target.")
                || type.startsWith("plugin.")
                || type.startsWith("workspace.")
                || type.startsWith("queue.")
                || type.startsWith("label.")
                || type.startsWith("json.")) {
            return 400;
        }
        return 500;
    }

    /** Writes the problem as the response, or logs one line when the request is gone and nothing can be written. */
    static void render(Context ctx, Problem problem) {
        try {
            write(ctx, problem);
        } catch (RuntimeException requestGone) {
            LOG.debug("could not answer {} (the request has ended): {}", problem.type(), requestGone.toString());
        }
    }

    private static void write(Context ctx, Problem problem) {
        int status = status(problem.type());
        ctx.status(status).contentType("application/json").result(Json.write(body(problem, status)));
    }

    /** {@return the JSON body of a problem answered with {@code status}} */
    static ObjectNode body(Problem problem, int status) {
        ObjectNode body = Json.object();
        body.put("type", problem.type());
        body.put("title", title(status));
        body.put("status", status);
        body.put("detail", problem.message());
        Object field = problem.details().get("field");
        body.put("field", field == null ? null : field.toString());
        if (problem.type().equals("run.suite_changed")) {
            // What changed, for a client to show before it continues the run with its stored cases.
            for (String detail : List.of("added", "removed", "modified", "fixtures_changed")) {
                body.set(detail, Json.tree(problem.details().get(detail)));
            }
        }
        return body;
    }

    /**
     * Jetty's answers to requests that never reach Javalin (a path it cannot take, such as {@code /%2e%2e/etc}, a
     * header it cannot parse), as the same JSON body instead of its HTML page.
     */
    static final class JettyErrors extends ErrorHandler {
        @Override
        protected void generateResponse(
                Request request, Response response, int code, String message, Throwable cause, Callback callback) {
            Problem problem = Problem.of(
                    code == 404 ? "route.not_found" : "request.rejected",
                    message == null || message.isBlank() ? "the request was refused" : message);
            byte[] bytes = Json.write(body(problem, code)).getBytes(StandardCharsets.UTF_8);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(bytes), callback);
        }
    }

    static void register(io.javalin.config.RoutesConfig routes) {
        routes.exception(AssayException.class, (e, ctx) -> render(ctx, e.problem()));
        routes.exception(
                HttpResponseException.class,
                (e, ctx) -> render(
                        ctx,
                        Problem.of(
                                switch (e.getStatus()) {
                                    case 404 -> "route.not_found";
                                    case 413 -> "request.too_large";
                                    default -> "request.rejected";
                                },
                                e.getMessage())));
        routes.exception(Exception.class, (e, ctx) -> {
            String request;
            try {
                request = ctx.method() + " " + ctx.path();
            } catch (RuntimeException requestGone) {
                // Jetty recycled the request (its client or the server went away): there is nobody to answer.
                LOG.debug("a handler ended after its request was gone: {}", e.toString());
                return;
            }
            LOG.error("request {} failed", request, e);
            render(ctx, Problem.of("server.internal", "the server failed; see its log"));
        });
    }

    private static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 406 -> "Not Acceptable";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 503 -> "Service Unavailable";
            default -> "Internal Server Error";
        };
    }
}
