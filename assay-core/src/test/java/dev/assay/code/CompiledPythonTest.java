package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

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

class CompiledPythonTest {
    private static String python;
    private final UnsandboxedSandbox sandbox = new UnsandboxedSandbox();

    @TempDir
    Path work;

    @BeforeAll
    static void findPython() {
        Assumptions.assumeTrue(Runtimes.find().python().isPresent(), "Python 3 is not installed");
        python = Runtimes.find().python().get().toString();
    }

    @Test
    void a_script_runs_as_the_bytecode_its_interpreter_compiled() throws Exception {
        var script = CompiledPython.of(sandbox, python, "hello", "print('hello from', __name__)\n");
        script.writeTo(work);

        var result =
                sandbox.run(new SandboxRequest(List.of(python, "-I", script.fileName()), work, Map.of(), "", null));

        assertThat(script.fileName()).isEqualTo("hello.pyc");
        assertThat(result.stdout()).as(result.stderr()).isEqualTo("hello from __main__\n");
    }

    @Test
    void a_script_that_does_not_compile_stays_source_and_its_run_says_why() throws Exception {
        var script = CompiledPython.of(sandbox, python, "broken", "def broken(:\n");
        script.writeTo(work);

        var result =
                sandbox.run(new SandboxRequest(List.of(python, "-I", script.fileName()), work, Map.of(), "", null));

        assertThat(script.fileName()).isEqualTo("broken.py");
        assertThat(result.stderr()).contains("SyntaxError");
    }
}
