package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What Assay's own Python scripts take from the sandbox's interpreter, asked once per interpreter and process (each
 * asking is one sandboxed run): their bytecode, and the module search path its site module sets up.
 */
public final class SandboxedPython {
    private static final Map<ScriptKey, byte[]> COMPILED = new ConcurrentHashMap<>();
    private static final Map<String, List<String>> SITE_PATHS = new ConcurrentHashMap<>();
    private static final Map<SkeletonKey, String> SKELETONS = new ConcurrentHashMap<>();
    /** Questions graded in one process; past this many, a skeleton is made again each time it is needed. */
    private static final int KEPT_SKELETONS = 4096;

    private static final String SKELETON_SCRIPT = LanguageRunner.resource("signature_skeleton.py");

    private SandboxedPython() {}

    /**
     * A script's bytecode is the interpreter's and the source's: two scripts of one name may differ (tests make such).
     */
    private record ScriptKey(String python, String name, String source) {}

    private record SkeletonKey(String python, String source) {}

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
     * run that follows then reports what is wrong with the interpreter)}. Python compiles the script it is given on
     * every start and caches bytecode only for imported modules, which for the harness alone is about 5 ms of every
     * run; it runs a {@code .pyc} file named as its script just as it runs the source.
     */
    static Script script(Sandbox sandbox, String python, String name, String source) throws InterruptedException {
        var key = new ScriptKey(python, name, source);
        byte[] bytecode = COMPILED.get(key);
        if (bytecode == null) {
            // dfile: tracebacks name the script as it is known, not the temporary file it was compiled from.
            String compile = "import py_compile; py_compile.compile('script.py', cfile='script.pyc', dfile='" + name
                    + ".py', doraise=True)";
            bytecode = ask(sandbox, python, compile, Map.of("script.py", source), "script.pyc")
                    .orElse(null);
            if (bytecode == null) {
                return new Script(name + ".py", source.getBytes(StandardCharsets.UTF_8));
            }
            COMPILED.putIfAbsent(key, bytecode);
        }
        return new Script(name + ".pyc", bytecode);
    }

    /**
     * {@return the module search path {@code python} has when started as Assay starts programs ({@code -I}, with its
     * site module: the standard library, the site-packages of its installation or virtual environment, what .pth files
     * add), or empty when it cannot be asked}. A script started without the site module ({@code -S}) sets it for itself
     * and finds the same modules, without paying for what the .pth files run.
     */
    static Optional<List<String>> sitePath(Sandbox sandbox, String python) throws InterruptedException {
        List<String> known = SITE_PATHS.get(python);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<List<String>> path = ask(
                        sandbox,
                        python,
                        "import json, sys; open('path.json', 'w').write(json.dumps(sys.path))",
                        Map.of(),
                        "path.json")
                .flatMap(SandboxedPython::strings);
        path.ifPresent(found -> SITE_PATHS.putIfAbsent(python, found));
        return path;
    }

    /**
     * {@return the signatures of a reference solution without its code ({@code signature_skeleton.py}): its imports,
     * classes and functions, every body {@code ...}}, or empty when it does not parse. The harness reads a question's
     * signatures in the process the program under test runs in, where the program could read the reference itself. Made
     * by parsing the source in a sandboxed run of its own, once per interpreter and source in a process.
     */
    public static String signatureSkeleton(Sandbox sandbox, String python, String source) throws InterruptedException {
        var key = new SkeletonKey(python, source);
        String known = SKELETONS.get(key);
        if (known != null) {
            return known;
        }
        String skeleton = ask(sandbox, python, SKELETON_SCRIPT, Map.of("source.py", source), "skeleton.py")
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                .orElse("");
        if (SKELETONS.size() < KEPT_SKELETONS) {
            SKELETONS.putIfAbsent(key, skeleton);
        }
        return skeleton;
    }

    /** {@return the file {@code output} that {@code code} wrote, run by {@code python -I} beside {@code files}} */
    private static Optional<byte[]> ask(
            Sandbox sandbox, String python, String code, Map<String, String> files, String output)
            throws InterruptedException {
        Path dir = null;
        try {
            dir = sandbox.scratch("assay-python");
            for (var file : files.entrySet()) {
                Files.writeString(dir.resolve(file.getKey()), file.getValue());
            }
            SandboxResult result =
                    sandbox.run(new SandboxRequest(List.of(python, "-I", "-c", code), dir, Map.of(), "", null));
            Path written = dir.resolve(output);
            return result.exitCode() == 0 && Files.isRegularFile(written)
                    ? Optional.of(Files.readAllBytes(written))
                    : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }

    private static Optional<List<String>> strings(byte[] json) {
        JsonNode array;
        try {
            array = Json.parse(new String(json, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (!array.isArray()) {
            return Optional.empty();
        }
        var strings = new ArrayList<String>();
        for (JsonNode item : array) {
            if (!item.isTextual()) {
                return Optional.empty();
            }
            strings.add(item.asText());
        }
        return Optional.of(List.copyOf(strings));
    }
}
