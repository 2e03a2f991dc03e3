package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.assay.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The deployment files (Dockerfile, deploy/k8s, compose.yaml) read as the tools read them and held to each other and to
 * the CLI: every command they run parses as an Assay command line, the server's port is the one exposed and published,
 * the image is the one the Dockerfile builds from this version's distribution archive, and the database URL comes from
 * where the manifests say. Docker and Kubernetes are not needed.
 */
class DeploymentFilesTest {
    private static final Path ROOT = Path.of("..");
    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void the_dockerfile_runs_the_launcher_of_this_versions_distribution_archive() throws IOException {
        Map<String, String> docker = dockerfile();

        assertThat(docker.get("ARG")).isEqualTo("VERSION=" + projectVersion());
        assertThat(docker.get("ADD")).isEqualTo("assay-cli/target/assay-${VERSION}.tar.gz /opt/");
        assertThat(Json.parse(docker.get("ENTRYPOINT")).get(0).asText()).isEqualTo("/opt/assay/bin/assay");
        List<String> command = strings(Json.parse(docker.get("CMD")));
        assertThat(subcommand(command)).isEqualTo("serve");
        assertThat(option(command, "--port")).isEqualTo(docker.get("EXPOSE"));
    }

    @Test
    void the_kubernetes_server_and_workers_run_the_same_image_on_the_database_of_the_secret() throws IOException {
        JsonNode server = kind(manifests("server.yaml"), "Deployment");
        JsonNode service = kind(manifests("server.yaml"), "Service");
        JsonNode worker = kind(manifests("worker.yaml"), "Deployment");
        JsonNode secret = kind(manifests("database.yaml"), "Secret");
        JsonNode database = kind(manifests("database.yaml"), "Service");
        JsonNode serverContainer = server.at("/spec/template/spec/containers/0");
        JsonNode workerContainer = worker.at("/spec/template/spec/containers/0");

        assertThat(serverContainer.path("image").asText()).isEqualTo(image());
        assertThat(workerContainer.path("image").asText()).isEqualTo(image());
        List<String> serve = strings(serverContainer.path("args"));
        List<String> work = strings(workerContainer.path("args"));
        assertThat(subcommand(serve)).isEqualTo("serve");
        assertThat(subcommand(work)).isEqualTo("worker");
        String port = option(serve, "--port");
        assertThat(serverContainer.at("/ports/0/containerPort").asText()).isEqualTo(port);
        assertThat(service.at("/spec/ports/0/targetPort").asText()).isEqualTo(port);
        String name = "/app.kubernetes.io~1name";
        assertThat(service.at("/spec/selector" + name).asText())
                .isEqualTo(server.at("/spec/template/metadata/labels" + name).asText())
                .isEqualTo(server.at("/spec/selector/matchLabels" + name).asText());
        assertThat(option(serve, "--host")).isEqualTo("0.0.0.0");
        // Kubernetes expands $(VAR) in args from the container's environment: both read the URL from the Secret.
        for (JsonNode container : List.of(serverContainer, workerContainer)) {
            assertThat(option(strings(container.path("args")), "--db")).isEqualTo("$(ASSAY_DB_URL)");
            JsonNode url = env(container, "ASSAY_DB_URL").at("/valueFrom/secretKeyRef");
            assertThat(url.path("name").asText())
                    .isEqualTo(secret.at("/metadata/name").asText());
            assertThat(secret.path("stringData").has(url.path("key").asText())).isTrue();
            assertThat(mountPath(container, "suites")).isEqualTo(option(serve, "--suites"));
        }
        String jdbcUrl = secret.path("stringData").path("jdbc-url").asText();
        assertThat(jdbcUrl)
                .startsWith("jdbc:postgresql://" + database.at("/metadata/name").asText() + ":5432/");
    }

    @Test
    void the_kubernetes_workers_scale_on_the_queue_depth_their_metrics_port_serves() throws IOException {
        JsonNode worker = kind(manifests("worker.yaml"), "Deployment");
        JsonNode autoscaler = kind(manifests("worker.yaml"), "HorizontalPodAutoscaler");
        JsonNode container = worker.at("/spec/template/spec/containers/0");
        String metricsPort = option(strings(container.path("args")), "--metrics-port");

        assertThat(autoscaler.at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Deployment");
        assertThat(autoscaler.at("/spec/scaleTargetRef/name").asText())
                .isEqualTo(worker.at("/metadata/name").asText());
        assertThat(autoscaler.at("/spec/minReplicas").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(autoscaler.at("/spec/maxReplicas").asInt())
                .isGreaterThan(autoscaler.at("/spec/minReplicas").asInt());
        JsonNode metric = autoscaler.at("/spec/metrics/0");
        assertThat(metric.path("type").asText()).isEqualTo("External");
        assertThat(metric.at("/external/metric/name").asText()).isEqualTo("assay_cases_waiting");
        assertThat(metric.at("/external/target/type").asText()).isEqualTo("AverageValue");
        // The autoscaler owns the count: a count in the Deployment would reset it at every apply.
        assertThat(worker.at("/spec").has("replicas")).isFalse();
        assertThat(container.at("/ports/0/containerPort").asText()).isEqualTo(metricsPort);
        assertThat(worker.at("/spec/template/metadata/annotations")
                        .path("prometheus.io/port")
                        .asText())
                .isEqualTo(metricsPort);
    }

    @Test
    void compose_runs_postgres_the_server_and_workers_that_scale_on_one_database() throws IOException {
        JsonNode services = YAML.readTree(ROOT.resolve("compose.yaml").toFile()).path("services");
        JsonNode server = services.path("server");
        JsonNode worker = services.path("worker");

        assertThat(services.has("postgres")).isTrue();
        assertThat(server.path("image").asText()).isEqualTo(image());
        assertThat(worker.path("image").asText()).isEqualTo(image());
        List<String> serve = strings(server.path("command"));
        List<String> work = strings(worker.path("command"));
        assertThat(subcommand(serve)).isEqualTo("serve");
        assertThat(subcommand(work)).isEqualTo("worker");
        assertThat(worker.at("/deploy/replicas").asInt()).isEqualTo(2);
        // docker compose up --scale worker=N: no fixed container name, no host port a second worker would collide on.
        assertThat(worker.has("container_name")).isFalse();
        assertThat(worker.has("ports")).isFalse();
        assertThat(strings(worker.path("expose"))).containsExactly(option(work, "--metrics-port"));
        assertThat(option(work, "--db"))
                .isEqualTo(option(serve, "--db"))
                .startsWith("jdbc:postgresql://postgres:5432/");
        String port = option(serve, "--port");
        assertThat(strings(server.path("ports"))).containsExactly(port + ":" + port);
        assertThat(server.at("/depends_on/postgres/condition").asText()).isEqualTo("service_healthy");
        assertThat(worker.at("/depends_on/postgres/condition").asText()).isEqualTo("service_healthy");
        String suites = option(serve, "--suites");
        assertThat(strings(server.path("volumes"))).anyMatch(volume -> volume.endsWith(":" + suites + ":ro"));
        assertThat(strings(worker.path("volumes"))).anyMatch(volume -> volume.endsWith(":" + suites + ":ro"));
    }

    /** {@return the instructions of the Dockerfile by keyword, continued lines joined} (the last of each wins) */
    private static Map<String, String> dockerfile() throws IOException {
        String text = Files.readString(ROOT.resolve("Dockerfile")).replace("\\\n", " ");
        var instructions = new java.util.HashMap<String, String>();
        for (String line : text.lines().toList()) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] words = line.strip().split("\\s+", 2);
                instructions.put(words[0], words.length > 1 ? words[1] : "");
            }
        }
        return instructions;
    }

    /** {@return the image the Dockerfile's build command tags: assay:<version>} */
    private static String image() throws IOException {
        return "assay:" + projectVersion();
    }

    private static String projectVersion() throws IOException {
        Matcher version = Pattern.compile("<artifactId>assay-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(version.find()).isTrue();
        return version.group(1);
    }

    private static List<JsonNode> manifests(String file) throws IOException {
        try (var documents = YAML.readValues(
                YAML.createParser(ROOT.resolve("deploy/k8s").resolve(file).toFile()), JsonNode.class)) {
            return documents.readAll();
        }
    }

    private static JsonNode kind(List<JsonNode> manifests, String kind) {
        return manifests.stream()
                .filter(manifest -> manifest.path("kind").asText().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind));
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no " + name + " in " + container);
    }

    private static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("name").asText().equals(volume)) {
                return mount.path("mountPath").asText();
            }
        }
        throw new AssertionError("no mount of " + volume + " in " + container);
    }

    private static List<String> strings(JsonNode array) {
        var strings = new ArrayList<String>();
        array.forEach(element -> strings.add(element.asText()));
        return strings;
    }

    /** {@return the subcommand the arguments name, once they parse as an Assay command line} */
    private static String subcommand(List<String> args) {
        String[] given = args.stream()
                .map(arg -> arg.equals("$(ASSAY_DB_URL)") ? "jdbc:postgresql://database/assay" : arg)
                .toArray(String[]::new);
        var line = AssayCli.commandLine(
                Map.of(),
                options -> {
                    throw new AssertionError("no model is made while parsing");
                },
                given);
        CommandLine.ParseResult parsed = line.parseArgs(given);
        assertThat(parsed.hasSubcommand()).as(String.join(" ", args)).isTrue();
        return parsed.subcommand().commandSpec().name();
    }

    private static String option(List<String> args, String name) {
        int index = args.indexOf(name);
        assertThat(index).as(name + " in " + args).isNotNegative();
        return args.get(index + 1);
    }
}
