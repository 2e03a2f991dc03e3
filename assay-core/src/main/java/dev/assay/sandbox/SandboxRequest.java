package dev.assay.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One command to run.
 *
 * @param command the program and its arguments
 * @param workDir the only writable directory, and the working directory (inside bubblewrap it is seen as
 *     {@code /workspace}, so the command never learns where it lies on the host)
 * @param env extra environment variables (the environment is otherwise minimal: PATH, HOME=the work directory, LANG,
 *     TMPDIR)
 * @param stdin text fed to standard input; empty for none
 * @param limits resource limits
 * @param readOnly files or directories of the host the command needs besides the system directories and the language
 *     runtimes (e.g. a library jar), shown read-only at the same path; empty for none
 */
public record SandboxRequest(
        List<String> command,
        Path workDir,
        Map<String, String> env,
        String stdin,
        SandboxLimits limits,
        List<Path> readOnly) {
    public SandboxRequest {
        command = List.copyOf(command);
        env = env == null ? Map.of() : Map.copyOf(env);
        stdin = stdin == null ? "" : stdin;
        limits = limits == null ? SandboxLimits.defaults() : limits;
        readOnly = readOnly == null ? List.of() : List.copyOf(readOnly);
    }

    /** A command that needs nothing of the host beyond the system directories and the language runtimes. */
    public SandboxRequest(
            List<String> command, Path workDir, Map<String, String> env, String stdin, SandboxLimits limits) {
        this(command, workDir, env, stdin, limits, List.of());
    }
}
