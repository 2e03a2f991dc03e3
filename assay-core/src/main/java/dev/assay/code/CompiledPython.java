package dev.assay.code;

import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Assay's own Python scripts as bytecode, compiled once per interpreter and process: Python compiles the script it is
 * given on every start and caches bytecode only for imported modules, which for the harness alone is about 5 ms of
 * every run. The interpreter runs a {@code .pyc} file named as its script just as it runs the source.
 */
final class CompiledPython {
    private static final Map<String, byte[]> COMPILED = new ConcurrentHashMap<>();

    private CompiledPython() {}

    /** A script as written into a work directory: its file name and content. */
    static final class Script {
        private final String fileName;
        private final byte[] content;

        Script(String fileName, byte[] content) {
            this.fileName = fileName;
            this.content = content;
        }

        String fileName() {
            return fileName;
        }

        void writeTo(Path dir) throws IOException {
            Files.write(dir.resolve(fileName), content);
        }
    }

    /**
     * {@return {@code name.pyc} compiled by {@code python}, or {@code name.py} itself when it cannot be compiled (the
     * run that follows then reports what is wrong with the interpreter)}
     */
    static Script of(Sandbox sandbox, String python, String name, String source) throws InterruptedException {
        String key = python + "\0" + name;
        byte[] bytecode = COMPILED.get(key);
        if (bytecode == null) {
            bytecode = compile(sandbox, python, name, source);
            if (bytecode == null) {
                return new Script(name + ".py", source.getBytes(StandardCharsets.UTF_8));
            }
            COMPILED.putIfAbsent(key, bytecode);
        }
        return new Script(name + ".pyc", bytecode);
    }

    /** Compiles in the sandbox, so that the bytecode is the one of the interpreter the runs will use. */
    private static byte[] compile(Sandbox sandbox, String python, String name, String source)
            throws InterruptedException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("assay-pyc");
            Files.writeString(dir.resolve("script.py"), source);
            // dfile: tracebacks name the script as it is known, not the temporary file it was compiled from.
            String compile = "import py_compile; py_compile.compile('script.py', cfile='script.pyc', dfile='" + name
                    + ".py', doraise=True)";
            var result = sandbox.run(new SandboxRequest(List.of(python, "-I", "-c", compile), dir, Map.of(), "", null));
            Path compiled = dir.resolve("script.pyc");
            return result.exitCode() == 0 && Files.isRegularFile(compiled) ? Files.readAllBytes(compiled) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }
}
