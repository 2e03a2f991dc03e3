package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.assay.Json;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.tools.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The Java harness inside the sandbox, wherever Assay's jars are. */
class JavaRunnerTest {
    @Test
    void java_questions_work_when_assay_lives_under_tmp() throws Exception {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        var jars = new LinkedHashSet<Path>();
        for (Class<?> type : List.of(ObjectMapper.class, JsonFactory.class, JsonProperty.class)) {
            jars.add(Path.of(
                    type.getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        // As if Assay had been cloned into /tmp/x: the sandbox's own /tmp would hide these.
        Path install = Files.createTempDirectory(Path.of("/tmp"), "assay-install");
        try {
            var copies = new ArrayList<Path>();
            for (Path jar : jars) {
                copies.add(Files.copy(
                        jar, Files.createDirectories(install.resolve("lib")).resolve(jar.getFileName())));
            }
            var config = Json.object()
                    .put("entry_point", "add")
                    .put("signature_source", "")
                    .put("case_timeout", 10);
            config.putArray("cases").addObject().put("design", false).set("input", Json.parse("{\"a\": 2, \"b\": 3}"));

            var plan = new JavaRunner(copies)
                    .plan(
                            "class Solution { public int add(int a, int b) { return a + b; } }",
                            config,
                            1,
                            SandboxLimits.defaults());
            var outcome = HarnessRun.execute(sandbox.get(), plan).getFirst();

            assertThat(outcome.status()).as(outcome.message()).isEqualTo("ok");
            assertThat(outcome.actual().asInt()).isEqualTo(5);
        } finally {
            Workspace.deleteTree(install);
        }
    }
}
