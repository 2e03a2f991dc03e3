package dev.assay.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One command to run.
 *
 * @param command the program and its arguments
 * @param workDir the only writable directory, and the working directory
 * @param env     extra environment variables (the environment is otherwise minimal: PATH, HOME=workDir, LANG)
 * @param stdin   text fed to standard input; empty for none
 * @param limits  resource limits
 */
public record SandboxRequest(List<String> command, Path workDir, Map<String, String> env, String stdin,
                             SandboxLimits limits) {
    public SandboxRequest {
        command = List.copyOf(command);
        env = env == null ? Map.of() : Map.copyOf(env);
        stdin = stdin == null ? "" : stdin;
        limits = limits == null ? SandboxLimits.defaults() : limits;
    }
}
