package dev.assay.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a case or suite asks of a container ({@code "sandbox": {"image": "local/repo-task:1", "workdir": "/repo",
 * "network": "none", "memory_mb": 2048, "pids": 256, "cpus": 1}}): the image its trial runs in, where the workspace
 * lies inside it, and its limits. Two equal specs share a warm pool of containers.
 *
 * @param image the image, by name or id; never blank
 * @param workdir the absolute directory inside the container that holds the trial's workspace (default
 *     {@code /workspace}); what the image has there seeds the workspace
 * @param network {@code none} (the default) or the name of an engine network the case asks for, e.g. {@code bridge}
 * @param memoryMb memory limit of the whole container in MiB, swap included (default 1024)
 * @param pids process and thread limit of the whole container (default 256)
 * @param cpus CPU limit in cores (default 1)
 */
public record ContainerSpec(String image, String workdir, String network, int memoryMb, int pids, double cpus) {
    /** The case and suite field that holds the spec. */
    public static final String FIELD = "sandbox";

    static final String DEFAULT_WORKDIR = "/workspace";
    private static final Set<String> KEYS = Set.of("image", "workdir", "network", "memory_mb", "pids", "cpus");
    private static final Pattern NETWORK = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    public ContainerSpec {
        if (image == null || image.isBlank()) {
            throw invalid("image", "`sandbox.image` must name an image");
        }
        workdir = workdir == null || workdir.isBlank() ? DEFAULT_WORKDIR : workdir;
        if (!workdir.startsWith("/") || workdir.equals("/") || workdir.contains("/..") || workdir.contains("//")) {
            throw invalid(
                    "workdir", "`sandbox.workdir` must be an absolute directory other than /, got '" + workdir + "'");
        }
        network = network == null || network.isBlank() ? "none" : network;
        if (!NETWORK.matcher(network).matches() || network.equals("host")) {
            throw invalid(
                    "network",
                    "`sandbox.network` must be none or the name of an engine network other than " + "host, got '"
                            + network + "'");
        }
        if (memoryMb < 6 || pids < 1 || !(cpus > 0)) {
            throw invalid(
                    "limits",
                    "`sandbox.memory_mb` (at least 6), `sandbox.pids` and `sandbox.cpus` must be " + "positive");
        }
    }

    /** A container of {@code image} with the defaults: {@code /workspace}, no network, 1024 MiB, 256 pids, 1 CPU. */
    public static ContainerSpec of(String image) {
        return new ContainerSpec(image, null, null, 1024, 256, 1);
    }

    /**
     * {@return the spec {@code node} writes}
     *
     * @throws AssayException {@code sandbox.invalid_spec} naming the field that is wrong
     */
    public static ContainerSpec parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw invalid("sandbox", "`sandbox` must be an object with at least an `image`");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                throw invalid(
                        name,
                        "`sandbox." + name + "` is not a field of a sandbox; known: "
                                + String.join(", ", KEYS.stream().sorted().toList()));
            }
        }
        return new ContainerSpec(
                text(node, "image"),
                text(node, "workdir"),
                text(node, "network"),
                whole(node, "memory_mb", 1024),
                whole(node, "pids", 256),
                node.has("cpus") ? number(node, "cpus") : 1);
    }

    /** {@return whether the container may reach a network} */
    public boolean networked() {
        return !network.equals("none");
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw invalid(field, "`sandbox." + field + "` must be a string");
        }
        return value.asText();
    }

    private static int whole(JsonNode node, String field, int fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw invalid(field, "`sandbox." + field + "` must be a whole number");
        }
        return value.intValue();
    }

    private static double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (!value.isNumber()) {
            throw invalid(field, "`sandbox." + field + "` must be a number");
        }
        return value.doubleValue();
    }

    private static AssayException invalid(String field, String message) {
        return new AssayException(Problem.of("sandbox.invalid_spec", message).withDetail("field", "sandbox." + field));
    }
}
