package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/extending.md, proved: a checker, a model kind, a system under test and a metric written in a jar of their own,
 * registered through {@code META-INF/services}, put on the class path as the launcher does with
 * {@code $ASSAY_HOME/plugins}, and used by a suite end to end without a change to Assay.
 */
class PluginJarTest {
    @TempDir
    Path home;

    private static final String CHECKER = """
            package acme;

            import com.fasterxml.jackson.databind.JsonNode;
            import dev.assay.check.Checker;
            import dev.assay.check.CheckerFactory;
            import dev.assay.check.Verdict;
            import java.util.Locale;

            /** {@code shouted}: the answer is written in capitals. */
            public final class ShoutedChecker implements CheckerFactory {
                @Override
                public String name() {
                    return "shouted";
                }

                @Override
                public Checker create(JsonNode expected) {
                    return context -> {
                        String answer = context.finalAnswer();
                        boolean shouted = !answer.isBlank() && answer.equals(answer.toUpperCase(Locale.ROOT));
                        return Verdict.of(shouted, "acme.not_shouted", shouted ? "" : "not in capitals: " + answer,
                                null);
                    };
                }
            }
            """;

    private static final String MODEL = """
            package acme;

            import dev.assay.model.ChatMessage;
            import dev.assay.model.ChatModel;
            import dev.assay.model.ModelOptions;
            import dev.assay.model.ModelProvider;
            import dev.assay.model.ModelRequest;
            import dev.assay.model.ModelResponse;
            import dev.assay.transcript.Usage;
            import java.util.List;
            import java.util.Locale;
            import java.util.function.Consumer;

            /** {@code echo:loud} repeats the user's last message in capitals, {@code echo:quiet} in small letters. */
            public final class EchoProvider implements ModelProvider {
                @Override
                public String kind() {
                    return "echo";
                }

                @Override
                public String defaultBaseUrl() {
                    return "";
                }

                @Override
                public String exampleModel() {
                    return "loud";
                }

                @Override
                public ChatModel create(String model, ModelOptions options, String apiKey, Consumer<String> log) {
                    return new ChatModel() {
                        @Override
                        public String name() {
                            return "echo:" + model;
                        }

                        @Override
                        public ModelResponse complete(ModelRequest request) {
                            String last = request.messages().stream().filter(m -> m.role() == ChatMessage.Role.USER)
                                    .reduce((a, b) -> b).map(ChatMessage::content).orElse("");
                            String text = model.equals("loud") ? last.toUpperCase(Locale.ROOT)
                                    : last.toLowerCase(Locale.ROOT);
                            return new ModelResponse(text, "", List.of(), Usage.NONE, "stop");
                        }
                    };
                }
            }
            """;

    private static final String SUBJECT = """
            package acme;

            import com.fasterxml.jackson.databind.JsonNode;
            import dev.assay.Json;
            import dev.assay.run.SubjectContext;
            import dev.assay.run.SubjectFactory;
            import dev.assay.subject.Session;
            import dev.assay.subject.Subject;
            import dev.assay.subject.SubjectInput;
            import dev.assay.transcript.Transcript;
            import dev.assay.transcript.TranscriptEvent;
            import java.time.Instant;
            import java.util.Locale;
            import java.util.Set;

            /** {@code --subject town-crier:LOUDNESS} answers each prompt itself, in capitals when the argument is loud. */
            public final class TownCrierFactory implements SubjectFactory {
                @Override
                public String name() {
                    return "town-crier";
                }

                @Override
                public Subject create(SubjectContext context) {
                    boolean loud = context.argument().equals("loud");
                    return new Subject() {
                        @Override
                        public String name() {
                            return "town-crier:" + context.argument();
                        }

                        @Override
                        public Set<String> toolNames() {
                            return Set.of();
                        }

                        @Override
                        public Transcript run(SubjectInput input, Session session) {
                            String prompt = input.prompt();
                            String answer = loud ? prompt.toUpperCase(Locale.ROOT) : prompt.toLowerCase(Locale.ROOT);
                            session.transcript().add(new TranscriptEvent.FinalAnswer(Instant.now(), answer));
                            return session.transcript().build();
                        }

                        @Override
                        public JsonNode describe() {
                            return Json.object().put("type", "town-crier").put("loudness", context.argument());
                        }
                    };
                }
            }
            """;

    private static final String METRIC = """
            package acme;

            import dev.assay.result.Item;
            import dev.assay.run.Metric;
            import dev.assay.run.MetricContext;
            import dev.assay.score.Scores;
            import java.util.Locale;
            import java.util.Map;

            /** {@code capitals}: the share of a run's answers written in capitals. */
            public final class CapitalsMetric implements Metric {
                @Override
                public String name() {
                    return "capitals";
                }

                @Override
                public Tally begin(MetricContext context) {
                    return new Tally() {
                        private int answers;
                        private int shouted;

                        @Override
                        public void accept(Item item) {
                            String answer = item.finalAnswer();
                            answers++;
                            shouted += !answer.isBlank() && answer.equals(answer.toUpperCase(Locale.ROOT)) ? 1 : 0;
                        }

                        @Override
                        public Scores result() {
                            return new Scores(Map.of(), answers == 0 ? null : (double) shouted / answers);
                        }
                    };
                }
            }
            """;

    @Test
    void a_checker_a_model_kind_and_a_metric_from_a_separate_jar_run_a_suite() throws Exception {
        Path jar = pluginJar();
        Path suite = shoutedSuite();

        JsonNode loud = run(jar, suite, List.of("--model", "echo:loud", "--metric", "capitals"), home.resolve("loud"));
        JsonNode quiet =
                run(jar, suite, List.of("--model", "echo:quiet", "--metric", "capitals"), home.resolve("quiet"));

        assertThat(loud.path("counts").path("passed").asInt()).isEqualTo(2);
        assertThat(loud.path("items").get(0).path("final_answer").asText()).isIn("SAY HELLO", "WAVE BACK");
        assertThat(loud.path("metrics").path("capitals").asDouble()).isEqualTo(1.0);
        assertThat(quiet.path("counts").path("failed").asInt()).isEqualTo(2);
        assertThat(quiet.path("items").get(0).path("checker_detail").toString()).contains("acme.not_shouted");
        assertThat(quiet.path("metrics").path("capitals").asDouble()).isEqualTo(0.0);
    }

    @Test
    void a_system_under_test_from_a_separate_jar_runs_a_suite() throws Exception {
        Path jar = pluginJar();
        Path suite = shoutedSuite();

        JsonNode loud = run(jar, suite, List.of("--subject", "town-crier:loud"), home.resolve("loud"));
        JsonNode quiet = run(jar, suite, List.of("--subject", "town-crier:soft"), home.resolve("quiet"));

        assertThat(loud.path("counts").path("passed").asInt()).isEqualTo(2);
        assertThat(loud.path("items").get(0).path("final_answer").asText()).isIn("SAY HELLO", "WAVE BACK");
        assertThat(loud.path("config").path("target").path("type").asText()).isEqualTo("town-crier");
        assertThat(quiet.path("counts").path("failed").asInt()).isEqualTo(2);
        assertThat(quiet.path("items").get(0).path("checker_detail").toString()).contains("acme.not_shouted");
    }

    /** Two cases judged by the plug-in's checker, {@code shouted}. */
    private Path shoutedSuite() throws IOException {
        return Files.writeString(home.resolve("suite.jsonl"), """
                {"id": "greet", "dimension": "common", "prompt": "say hello", "checker": "shouted", "expected": null}
                {"id": "wave", "dimension": "common", "prompt": "wave back", "checker": "shouted", "expected": null}
                """);
    }

    private JsonNode run(Path jar, Path suite, List<String> subject, Path out) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var command = new ArrayList<>(List.of(
                java,
                "-cp",
                System.getProperty("java.class.path") + File.pathSeparator + jar,
                AssayCli.class.getName(),
                "run",
                suite.toString()));
        command.addAll(subject);
        command.addAll(List.of("--out", out.toString(), "--format", "json", "--quiet"));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(Map.of("ASSAY_HOME", home.toString()));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return Json.MAPPER.readTree(out.resolve("report.json").toFile());
    }

    /** Compiles the plug-in against Assay's classes and jars it with its service files, as a plug-in author does. */
    private Path pluginJar() throws IOException {
        Path sources = Files.createDirectories(home.resolve("plugin/src/acme"));
        Path classes = Files.createDirectories(home.resolve("plugin/classes"));
        Files.writeString(sources.resolve("ShoutedChecker.java"), CHECKER);
        Files.writeString(sources.resolve("EchoProvider.java"), MODEL);
        Files.writeString(sources.resolve("TownCrierFactory.java"), SUBJECT);
        Files.writeString(sources.resolve("CapitalsMetric.java"), METRIC);
        var arguments = new ArrayList<>(
                List.of("--release", "21", "-d", classes.toString(), "-cp", System.getProperty("java.class.path")));
        arguments.add(sources.resolve("ShoutedChecker.java").toString());
        arguments.add(sources.resolve("EchoProvider.java").toString());
        arguments.add(sources.resolve("TownCrierFactory.java").toString());
        arguments.add(sources.resolve("CapitalsMetric.java").toString());
        int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, arguments.toArray(String[]::new));
        assertThat(compiled).isZero();
        Path jar = home.resolve("acme-plugin.jar");
        try (var out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(
                        new JarEntry(classes.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
            service(out, "dev.assay.check.CheckerFactory", "acme.ShoutedChecker");
            service(out, "dev.assay.model.ModelProvider", "acme.EchoProvider");
            service(out, "dev.assay.run.SubjectFactory", "acme.TownCrierFactory");
            service(out, "dev.assay.run.Metric", "acme.CapitalsMetric");
        }
        return jar;
    }

    private static void service(OutputStream jar, String service, String implementation) throws IOException {
        var out = (JarOutputStream) jar;
        out.putNextEntry(new JarEntry("META-INF/services/" + service));
        out.write((implementation + "\n").getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }
}
