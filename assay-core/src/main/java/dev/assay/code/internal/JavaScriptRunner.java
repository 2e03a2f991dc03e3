package dev.assay.code.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.Runtimes;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs JavaScript through {@code harness.js} on Node. Functions and {@code class Solution} methods are bound by
 * parameter name with positional fallback; lists and trees follow the JSDoc types above the function, as judge sites
 * write them.
 */
final class JavaScriptRunner implements LanguageRunner {
    private static final String HARNESS = LanguageRunner.resource("harness.js");
    /** V8 reserves far more address space than it uses; an address-space limit below this stops it starting. */
    private static final long MIN_ADDRESS_SPACE = 8L << 30;

    private final String node;

    /** @param node the Node.js program, as the sandbox finds it ({@link #node(Sandbox)}) */
    JavaScriptRunner(String node) {
        this.node = node;
    }

    /** {@return the Node.js program: this machine's real one, or in a container the image's {@code node}} */
    static String node(Sandbox sandbox) {
        return sandbox.hostSystem() ? Runtimes.find().node().map(Path::toString).orElse("node") : "node";
    }

    @Override
    public HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits) {
        long heapMiB = Math.max(64, limits.memoryBytes() >> 20);
        var nodeLimits = new SandboxLimits(
                limits.wallTime(),
                Math.max(limits.memoryBytes(), MIN_ADDRESS_SPACE),
                limits.maxProcesses(),
                limits.maxOutputBytes());
        return new HarnessRun.Plan(
                Map.of("solution.js", code, "harness.js", HARNESS),
                List.of(node, "--max-old-space-size=" + heapMiB, "harness.js"),
                config,
                caseCount,
                nodeLimits,
                List.of());
    }
}
