package dev.assay.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Problem;

/**
 * A run's {@code sandbox} setting (assay.yaml's {@code defaults.sandbox}, the API's {@code sandbox}): the container
 * engine, as {@code --sandbox} names it, and the container of the cases that name none, written with the fields of a
 * case's {@code sandbox} ({@code {"engine": "podman", "image": "local/repo-task:1", "workdir": "/repo"}}). Immutable.
 *
 * @param engine {@code docker} or {@code podman}; null for the first that answers
 * @param container the case fields, checked as a case's {@code sandbox}; null when the setting names no image
 */
public record SandboxDefaults(String engine, ObjectNode container) {
    /** The field that names the engine, beside a case's own fields. */
    public static final String ENGINE = "engine";

    public SandboxDefaults {
        container = container == null ? null : container.deepCopy();
    }

    /**
     * {@return the setting {@code node} writes}
     *
     * @throws AssayException {@code sandbox.invalid_spec} naming the field that is wrong ({@code sandbox.FIELD})
     */
    public static SandboxDefaults parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw invalid(
                    ContainerSpec.FIELD,
                    "`sandbox` must be an object {\"engine\": \"docker|podman\", \"image\": ..., \"workdir\": ...}");
        }
        JsonNode engine = node.get(ENGINE);
        if (engine != null
                && !engine.isNull()
                && (!engine.isTextual() || engine.asText().isBlank())) {
            throw invalid(ContainerSpec.FIELD + "." + ENGINE, "`sandbox.engine` must name an engine: docker or podman");
        }
        ObjectNode container = ((ObjectNode) node).deepCopy();
        container.remove(ENGINE);
        if (!container.isEmpty()) {
            ContainerSpec.parse(container);
        }
        return new SandboxDefaults(
                engine == null || engine.isNull() ? null : engine.asText().strip(),
                container.isEmpty() ? null : container);
    }

    private static AssayException invalid(String field, String message) {
        return new AssayException(Problem.of("sandbox.invalid_spec", message).withDetail("field", field));
    }
}
