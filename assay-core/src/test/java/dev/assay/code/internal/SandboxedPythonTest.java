package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.sandbox.Runtimes;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.UnsandboxedSandbox;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxedPythonTest {
    private static String python;
    private final UnsandboxedSandbox sandbox = new UnsandboxedSandbox();

    @TempDir
    Path work;

    @BeforeAll
    static void findPython() {
        Assumptions.assumeTrue(Runtimes.find().python().isPresent(), "Python 3 is not installed");
        python = Runtimes.find().python().get().toString();
    }

    private String run(String... command) throws InterruptedException {
        var result = sandbox.run(new SandboxRequest(List.of(command), work, Map.of(), "", null));
        return result.stdout() + result.stderr();
    }

    @Test
    void a_script_runs_as_the_bytecode_its_interpreter_compiled() throws Exception {
        var script = SandboxedPython.script(sandbox, python, "hello", "print('hello from', __name__)\n");
        script.writeTo(work);

        assertThat(script.fileName()).isEqualTo("hello.pyc");
        assertThat(run(python, "-I", script.fileName())).isEqualTo("hello from __main__\n");
    }

    @Test
    void a_script_that_does_not_compile_stays_source_and_its_run_says_why() throws Exception {
        var script = SandboxedPython.script(sandbox, python, "broken", "def broken(:\n");
        script.writeTo(work);

        assertThat(script.fileName()).isEqualTo("broken.py");
        assertThat(run(python, "-I", script.fileName())).contains("SyntaxError");
    }

    @Test
    void the_site_path_is_the_one_of_a_full_start_site_packages_included() throws Exception {
        var path = SandboxedPython.sitePath(sandbox, python).orElseThrow();

        var full = Json.parse(run(python, "-I", "-c", "import json, sys; print(json.dumps(sys.path))"));
        var bare = Json.parse(run(python, "-I", "-S", "-c", "import json, sys; print(json.dumps(sys.path))"));
        assertThat(path)
                .containsExactlyElementsOf(
                        full.valueStream().map(entry -> entry.asText()).toList());
        assertThat(path).anyMatch(entry -> entry.endsWith("site-packages") || entry.endsWith("dist-packages"));
        assertThat(path).hasSizeGreaterThan(bare.size());
    }
}
