package dev.assay.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * An OTLP/HTTP receiver on loopback for tests, as a collector is one: {@code POST /v1/traces} with protobuf bodies,
 * decoded with the OTLP messages; every span is kept with its resource's attributes.
 */
final class OtlpReceiver implements AutoCloseable {
    /** A received span and the attributes of the resource it came with. */
    record Received(Span span, List<KeyValue> resource) {
        String attribute(String key) {
            return value(span.getAttributesList(), key);
        }

        String resourceAttribute(String key) {
            return value(resource, key);
        }

        private static String value(List<KeyValue> attributes, String key) {
            return attributes.stream()
                    .filter(kv -> kv.getKey().equals(key))
                    .map(kv -> text(kv.getValue()))
                    .findFirst()
                    .orElse(null);
        }

        private static String text(AnyValue value) {
            return switch (value.getValueCase()) {
                case STRING_VALUE -> value.getStringValue();
                case INT_VALUE -> Long.toString(value.getIntValue());
                case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
                case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
                case ARRAY_VALUE ->
                    String.join(
                            ",",
                            value.getArrayValue().getValuesList().stream()
                                    .map(Received::text)
                                    .toList());
                default -> value.toString();
            };
        }
    }

    private final HttpServer server;
    private final List<Received> spans = Collections.synchronizedList(new ArrayList<>());
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@return the endpoint to give {@code OTEL_EXPORTER_OTLP_ENDPOINT}} */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** {@return every span received so far} */
    List<Received> spans() {
        return List.copyOf(spans);
    }

    /** {@return each request's method, path and content type} */
    List<String> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream body = exchange.getRequestBody()) {
            requests.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                            + exchange.getRequestHeaders().getFirst("Content-Type"));
            if (!exchange.getRequestURI().getPath().equals("/v1/traces")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
            for (ResourceSpans resource : request.getResourceSpansList()) {
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    for (Span span : scope.getSpansList()) {
                        spans.add(new Received(span, resource.getResource().getAttributesList()));
                    }
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
