package dev.assay.tools.mcp;

import dev.assay.sandbox.Sandbox;
import dev.assay.tools.environment.Environment;
import dev.assay.tools.environment.EnvironmentLauncher;
import dev.assay.tools.environment.EnvironmentSpec;
import java.time.Duration;

/**
 * The environment launcher {@code mcp}: a stdio MCP server per trial, started in the sandbox and connected with the MCP
 * Java SDK. Found by {@link java.util.ServiceLoader}. Thread-safe (stateless).
 */
public final class McpEnvironmentLauncher implements EnvironmentLauncher {
    @Override
    public String name() {
        return "mcp";
    }

    @Override
    public Environment start(EnvironmentSpec spec, Sandbox sandbox, Duration timeout) throws InterruptedException {
        return McpEnvironment.start(spec, sandbox, timeout);
    }
}
