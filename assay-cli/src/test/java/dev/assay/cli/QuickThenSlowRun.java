package dev.assay.cli;

import dev.assay.testing.ScriptedOpenAiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A run to stop in the middle: a suite of one quick case and three slow ones, a scripted model that answers the quick
 * one at once and the slow ones after 30 s (while {@code slow} says so), and the CLI in a process of its own, one case
 * at a time, printing a line per case, so a test can signal it once {@code [1/4]} is printed.
 */
final class QuickThenSlowRun {
    private QuickThenSlowRun() {}

    /** {@return a scripted model for the suite; slow cases are answered at once when {@code slow} turns false} */
    static ScriptedOpenAiServer model(BooleanSupplier slow) {
        return ScriptedOpenAiServer.start(request -> request.firstUserText().contains("quick") || !slow.getAsBoolean()
                ? ScriptedOpenAiServer.text("ok")
                : new ScriptedOpenAiServer.Reply.Delayed(30_000, ScriptedOpenAiServer.text("late")));
    }

    /** {@return the CLI running the suite against the model, stdout and stderr merged} */
    static Process start(Path home, ScriptedOpenAiServer model, String... options) throws IOException {
        var lines = new StringBuilder("{\"id\": \"quick\", \"dimension\": \"common\", \"prompt\": \"quick\", "
                + "\"checker\": \"contains\", \"expected\": \"ok\"}\n");
        for (int i = 0; i < 3; i++) {
            lines.append("{\"id\": \"slow")
                    .append(i)
                    .append("\", \"dimension\": \"common\", \"prompt\": \"slow ")
                    .append(i)
                    .append("\", \"checker\": \"contains\", \"expected\": \"ok\"}\n");
        }
        Path suite = Files.writeString(home.resolve("suite.jsonl"), lines);
        var args = new ArrayList<>(List.of(
                "run",
                suite.toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--api-key-env",
                "NONE",
                "--concurrency",
                "1",
                "--verbose"));
        args.addAll(List.of(options));
        return cli(home, args.toArray(String[]::new));
    }

    /** {@return the CLI in a process of its own with {@code home} as its Assay home, stdout and stderr merged} */
    static Process cli(Path home, String... args) throws IOException {
        return cli(home, Map.of(), args);
    }

    /** {@return the CLI in a process of its own, its environment changed by {@code env}, stdout and stderr merged} */
    static Process cli(Path home, Map<String, String> env, String... args) throws IOException {
        var command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AssayCli.class.getName()));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        builder.environment().put("ASSAY_HOME", home.toString());
        builder.redirectErrorStream(true);
        return builder.start();
    }
}
