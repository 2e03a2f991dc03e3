package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.run.EvalSpec;
import dev.assay.server.DialogStartBodies;
import dev.assay.testing.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The two ways to start a dialog run, {@code assay dialog run} and the API's dialog start body, resolve the same
 * settings to the same {@link EvalSpec}, which reads back from its stored JSON as it was written. Only the dataset's
 * name differs by design: the path as the user gave it on the command line, its name in the datasets directory over
 * HTTP.
 */
class DialogStartPathsTest {
    @TempDir
    Path dir;

    Path datasets;
    Path dataset;
    Path runDirectory;

    @BeforeEach
    void dataset() throws Exception {
        datasets = Files.createDirectories(dir.resolve("datasets"));
        dataset = Files.writeString(datasets.resolve("dialogs.jsonl"), "{\"dialog_id\": \"d1\", \"turns\": []}\n");
        runDirectory = dir.resolve("runs").resolve("run-1");
    }

    @Test
    void a_model_run_resolves_alike_from_flags_and_body() throws Exception {
        Path prompt = Files.writeString(dir.resolve("prompt.txt"), "Answer briefly.");

        EvalSpec fromFlags = flags(
                "--model",
                "openai:gpt-test",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--api-key-env",
                "TEST_API_KEY",
                "--workers-dialog",
                "4",
                "--turn-timeout",
                "30",
                "--turn-retries",
                "2",
                "--system-prompt",
                prompt.toString(),
                "--metrics-profile",
                "memfin-v1-corrected",
                "--blank-memory-keys");
        EvalSpec fromBody = body("""
                {"kind": "dialog", "dataset": "dialogs.jsonl", "model_name": "openai:gpt-test",
                 "base_url": "http://127.0.0.1:9/v1", "api_key_env": "TEST_API_KEY", "concurrency": 4,
                 "timeout_s": 30, "retries": 2, "system_prompt": "Answer briefly.",
                 "metrics_profile": "memfin-v1-corrected", "blank_memory_keys": true}
                """);

        assertSame(fromFlags, fromBody);
        assertThat(fromBody.limits().concurrency()).isEqualTo(4);
        assertThat(fromBody.dataset().dialogs().turnRetries()).isEqualTo(2);
        assertThat(fromBody.dataset().dialogs().promptVersion()).startsWith("sha256:");
    }

    @Test
    void an_agent_service_run_resolves_alike_from_flags_and_body() throws Exception {
        EvalSpec fromFlags = flags(
                "--agent",
                "http://127.0.0.1:9/run",
                "--agent-model",
                "agent-model",
                "--agent-auth-env",
                "AGENT_TOKEN",
                "--field-mapping",
                "recall=/memory_recall,compliance=",
                "--workers-dialog",
                "3",
                "--turn-timeout",
                "45",
                "--turn-retries",
                "0");
        EvalSpec fromBody = body("""
                {"kind": "dialog", "dataset": "dialogs.jsonl", "concurrency": 3, "timeout_s": 45, "retries": 0,
                 "agent": {"url": "http://127.0.0.1:9/run", "model": "agent-model", "auth_env": "AGENT_TOKEN",
                  "field_mapping": "recall=/memory_recall,compliance="}}
                """);

        assertSame(fromFlags, fromBody);
        assertThat(fromBody.subject().sut()).isInstanceOf(EvalSpec.AgentService.class);
    }

    @Test
    void a_run_naming_only_the_dataset_and_model_gets_the_same_defaults_from_both() throws Exception {
        EvalSpec fromFlags = flags("--model", "mock");
        EvalSpec fromBody = body("{\"kind\": \"dialog\", \"dataset\": \"dialogs.jsonl\", \"model_name\": \"mock\"}");

        assertSame(fromFlags, fromBody);
        assertThat(fromBody.limits().concurrency()).isEqualTo(EvalSpec.Dialogs.DEFAULT_CONCURRENCY);
        assertThat(fromBody.limits().timeout()).isEqualTo(EvalSpec.Limits.DEFAULT_TIMEOUT);
        assertThat(fromBody.dataset().dialogs().turnRetries()).isEqualTo(EvalSpec.Dialogs.DEFAULT_TURN_RETRIES);
    }

    /** Equal but for the dataset's name, and each equal to itself after the JSON round trip of the stored spec. */
    private void assertSame(EvalSpec fromFlags, EvalSpec fromBody) {
        assertThat(fromFlags.dataset().dialogs().name()).isEqualTo(dataset.toString());
        assertThat(fromBody.dataset().dialogs().name()).isEqualTo("dialogs.jsonl");
        assertThat(named(fromBody, dataset.toString())).isEqualTo(fromFlags);
        assertThat(TestSpecs.roundTrip(fromFlags)).isEqualTo(fromFlags);
        assertThat(TestSpecs.roundTrip(fromBody)).isEqualTo(fromBody);
    }

    private EvalSpec flags(String... options) {
        var args = new ArrayList<>(
                List.of(dataset.toString(), "--out", runDirectory.getParent().toString()));
        args.addAll(List.of(options));
        var command = new DialogRunCommand();
        new CommandLine(command).parseArgs(args.toArray(String[]::new));
        return command.spec(runDirectory.getFileName().toString());
    }

    private EvalSpec body(String json) {
        return DialogStartBodies.spec(Json.parse(json), datasets, runDirectory);
    }

    private static EvalSpec named(EvalSpec spec, String name) {
        EvalSpec.Dialogs dialogs = spec.dataset().dialogs();
        return spec.withDataset(EvalSpec.Dataset.of(new EvalSpec.Dialogs(
                name,
                dialogs.file(),
                dialogs.runDirectory(),
                dialogs.systemPrompt(),
                dialogs.promptVersion(),
                dialogs.fieldMapping(),
                dialogs.turnRetries(),
                dialogs.score(),
                dialogs.judge())));
    }
}
