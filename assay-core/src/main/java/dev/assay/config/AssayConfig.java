package dev.assay.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.Yaml;
import dev.assay.cases.DatasetMapping;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.config.internal.ConfigNode;
import dev.assay.config.internal.Secrets;
import dev.assay.cost.Price;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.SandboxDefaults;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.McpServerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code assay.yaml}, loaded and validated (docs/configuration.md): named targets, MCP servers, judge models and run
 * defaults. Holds no secret: keys and tokens are named by their environment variables, and literal values that look
 * like secrets are refused. Immutable.
 *
 * @param file where it was read from
 * @param version the file format version (1)
 * @param defaultSubject the target run when no other source names what to evaluate ({@code defaults.target}); null for
 *     none
 * @param database the JDBC URL of the store unless {@code --db} is given ({@code defaults.db}); null for Assay's own
 * @param defaults what the file says about every run, resolved as any source's: the rest of {@code defaults}, the
 *     {@code prices}, the {@code datasets} mappings (by the dataset's absolute path) and the {@code judges}
 * @param subjects targets by name, in file order
 * @param mcpServers MCP servers, in file order
 * @param judges judge models, in file order; the first is the default judge
 */
public record AssayConfig(
        Path file,
        int version,
        String defaultSubject,
        String database,
        RunSettings defaults,
        Map<String, SubjectConfig> subjects,
        List<McpServerConfig> mcpServers,
        List<JudgeConfig> judges) {
    /** The format version this code reads. */
    public static final int FORMAT_VERSION = 1;

    public AssayConfig {
        Objects.requireNonNull(file, "file");
        // Settings are a builder: this record keeps its own copy and gives out copies, so it stays immutable.
        defaults = defaults == null ? new RunSettings() : defaults.copy();
        subjects = Collections.unmodifiableMap(new LinkedHashMap<>(subjects));
        mcpServers = List.copyOf(mcpServers);
        judges = List.copyOf(judges);
    }

    /** {@return a copy of what the file says about every run, for the caller to add to} */
    @Override
    public RunSettings defaults() {
        return defaults.copy();
    }

    /**
     * Reads and validates a configuration file.
     *
     * @throws AssayException {@code config.not_found} when the file is missing, {@code config.invalid} for YAML syntax
     *     and validation errors, {@code config.secret} for a literal secret; each names the file, the line and the
     *     field in its details ({@code file}, {@code line}, {@code field})
     */
    public static AssayConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new AssayException(
                    Problem.of("config.not_found", file + ": no such file").withDetail("file", file.toString()));
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("config.unreadable", file + ": " + e.getMessage())
                            .withDetail("file", file.toString()),
                    e);
        }
        JsonNode tree;
        Map<String, Integer> lines = new HashMap<>();
        try {
            tree = Yaml.MAPPER.readTree(text);
            locate(text, lines);
        } catch (IOException e) {
            // Reading from a string, so every failure here is a syntax error with a location.
            var syntax = e instanceof JsonProcessingException processing ? processing : null;
            int line = syntax == null || syntax.getLocation() == null
                    ? 0
                    : syntax.getLocation().getLineNr();
            throw new AssayException(
                    Problem.of(
                                    ConfigNode.INVALID,
                                    file + ":" + line + ": not valid YAML: "
                                            + (syntax == null ? e.getMessage() : syntax.getOriginalMessage()))
                            .withDetail("file", file.toString())
                            .withDetail("line", line)
                            .withDetail("field", null),
                    e);
        }
        var root = new ConfigNode(tree, "", file, lines);
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            return new AssayConfig(file, FORMAT_VERSION, null, null, null, Map.of(), List.of(), List.of());
        }
        root.requireObject()
                .onlyKeys(Set.of("version", "defaults", "targets", "mcp_servers", "judges", "prices", "datasets"));
        Secrets.scan(root);
        Integer version = root.get("version").integer(1);
        if (version != null && version > FORMAT_VERSION) {
            throw root.get("version").invalid("is " + version + "; this Assay reads version " + FORMAT_VERSION);
        }
        var mcpServers = new ArrayList<McpServerConfig>();
        root.get("mcp_servers").entries().forEach((name, node) -> mcpServers.add(mcpServer(name, node)));
        var subjects = new LinkedHashMap<String, SubjectConfig>();
        root.get("targets")
                .entries()
                .forEach((name, node) -> subjects.put(name, subject(file, name, node, mcpServers)));
        var judges = new ArrayList<JudgeConfig>();
        root.get("judges").entries().forEach((name, node) -> judges.add(judge(name, node)));
        ConfigNode defaultsNode = root.get("defaults");
        RunSettings defaults = defaults(defaultsNode, subjects);
        var datasets = new LinkedHashMap<Path, DatasetMapping>();
        Path base = file.toAbsolutePath().getParent();
        root.get("datasets")
                .entries()
                .forEach((path, node) -> datasets.put(base.resolve(path).normalize(), dataset(node)));
        Map<String, Price> prices = prices(root.get("prices"));
        defaults.prices(prices.isEmpty() ? null : prices)
                .datasets(datasets.isEmpty() ? null : datasets)
                .judges(judges.isEmpty() ? null : judges);
        return new AssayConfig(
                file,
                version == null ? FORMAT_VERSION : version,
                defaultsNode.get("target").text(null),
                defaultsNode.get("db").text(null),
                defaults,
                subjects,
                mcpServers,
                judges);
    }

    /**
     * {@code prices: {MODEL: {input, cached_input, output}}}, USD per million tokens; cached_input defaults to input.
     */
    private static Map<String, Price> prices(ConfigNode node) {
        var prices = new LinkedHashMap<String, Price>();
        node.entries().forEach((model, price) -> {
            price.requireObject().onlyKeys(Set.of("input", "cached_input", "output"));
            Double input = nonNegative(price.get("input"), true);
            Double cached = nonNegative(price.get("cached_input"), false);
            Double output = nonNegative(price.get("output"), true);
            prices.put(model, new Price(input, cached != null ? cached : input, output));
        });
        return prices;
    }

    private static Double nonNegative(ConfigNode node, boolean required) {
        if (!node.isPresent()) {
            if (required) {
                throw node.invalid("is required: USD per million tokens");
            }
            return null;
        }
        Double value = node.number();
        if (value == null || !(value >= 0)) {
            throw node.invalid("must be a number >= 0 (USD per million tokens)");
        }
        return value;
    }

    /** Records the line of every field and list element, by JSON pointer, for error messages. */
    private static void locate(String text, Map<String, Integer> lines) throws IOException {
        try (JsonParser parser = Yaml.MAPPER.getFactory().createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME || parser.getParsingContext().inArray()) {
                    lines.putIfAbsent(
                            parser.getParsingContext().pathAsPointer().toString(),
                            parser.currentTokenLocation().getLineNr());
                }
            }
        }
    }

    private static McpServerConfig mcpServer(String name, ConfigNode node) {
        node.requireObject().onlyKeys(Set.of("command", "args", "env", "url", "headers"));
        boolean stdio = node.get("command").isPresent();
        boolean http = node.get("url").isPresent();
        if (stdio == http) {
            throw node.invalid("needs either 'command' (stdio) or 'url' (streamable HTTP)");
        }
        if (stdio) {
            if (node.get("headers").isPresent()) {
                throw node.get("headers").invalid("applies to 'url' servers only");
            }
            List<String> env = node.get("env").texts();
            for (int i = 0; i < env.size(); i++) {
                node.get("env").element(i).envName(null);
            }
            return node.located(() -> new McpServerConfig.Stdio(
                    name, node.get("command").requiredText(), node.get("args").texts(), env));
        }
        if (node.get("args").isPresent() || node.get("env").isPresent()) {
            throw node.get(node.get("args").isPresent() ? "args" : "env").invalid("applies to 'command' servers only");
        }
        var headers = new LinkedHashMap<String, String>();
        node.get("headers").entries().forEach((header, variable) -> headers.put(header, variable.envName(null)));
        return node.located(() -> new McpServerConfig.Http(name, node.get("url").requiredText(), headers));
    }

    private static SubjectConfig subject(Path file, String name, ConfigNode node, List<McpServerConfig> mcpServers) {
        node.requireObject()
                .onlyKeys(Set.of(
                        "model",
                        "base_url",
                        "api_key_env",
                        "stream",
                        "request_timeout_s",
                        "max_attempts",
                        "tool_mode",
                        "max_steps",
                        "temperature",
                        "seed",
                        "max_tokens",
                        "mcp",
                        "options",
                        "agent",
                        "replay"));
        int kinds = (node.get("model").isPresent() ? 1 : 0)
                + (node.get("agent").isPresent() ? 1 : 0)
                + (node.get("replay").isPresent() ? 1 : 0);
        if (kinds != 1) {
            throw node.invalid("give exactly one of 'model', 'agent' (a service URL or object) and 'replay' (a file)");
        }
        if (node.get("agent").isPresent()) {
            ConfigNode agent = node.get("agent");
            return agent.located(() -> new SubjectConfig(name, null, null, List.of(), null, agent(agent), null));
        }
        if (node.get("replay").isPresent()) {
            Path base = file.toAbsolutePath().getParent();
            Path replay = base.resolve(node.get("replay").requiredText());
            return new SubjectConfig(name, null, null, List.of(), null, null, replay);
        }
        ModelOptions model = model(node);
        ToolMode toolMode = node.get("tool_mode").parsed(ToolMode::parse, "native or text");
        Integer maxSteps = node.get("max_steps").integer(1);
        Integer seed = node.get("seed").integer(0);
        AgentSettings agent = new AgentSettings(
                toolMode,
                maxSteps == null ? AgentSettings.defaults().maxSteps() : maxSteps,
                node.get("temperature").number(),
                seed == null ? null : seed.longValue(),
                node.get("max_tokens").integer(1));
        List<String> mcp = null;
        if (node.get("mcp").isPresent()) {
            mcp = node.get("mcp").texts();
            var known = mcpServers.stream().map(McpServerConfig::name).toList();
            for (int i = 0; i < mcp.size(); i++) {
                if (!known.contains(mcp.get(i))) {
                    throw node.get("mcp").element(i).invalid("names no server of 'mcp_servers' " + known);
                }
            }
        }
        ConfigNode options = node.get("options");
        if (options.isPresent()) {
            options.requireObject();
        }
        return new SubjectConfig(name, model, agent, mcp, options.isPresent() ? options.json() : null);
    }

    /** {@code agent: URL}, or an object with the service's request, tools, credential and event names. */
    private static SseAgentSettings agent(ConfigNode node) {
        if (node.json().isTextual()) {
            return SseAgentSettings.of(URI.create(node.requiredText()));
        }
        node.requireObject()
                .onlyKeys(Set.of(
                        "url",
                        "body",
                        "model",
                        "tools",
                        "tools_url",
                        "config",
                        "auth_env",
                        "auth_header",
                        "events",
                        "paths",
                        "max_concurrency"));
        var events = new LinkedHashMap<String, String>();
        node.get("events").entries().forEach((kind, value) -> events.put(kind, value.requiredText()));
        var paths = new LinkedHashMap<String, String>();
        node.get("paths").entries().forEach((field, value) -> paths.put(field, value.requiredText()));
        ConfigNode config = node.get("config");
        if (config.isPresent()) {
            config.requireObject();
        }
        String toolsUrl = node.get("tools_url").text(null);
        Integer maxConcurrency = node.get("max_concurrency").integer(1);
        return new SseAgentSettings(
                URI.create(node.get("url").requiredText()),
                node.get("body").isPresent() ? node.get("body").json() : null,
                node.get("model").text(""),
                "",
                node.get("tools").texts(),
                toolsUrl == null ? null : URI.create(toolsUrl),
                config.isPresent() ? (ObjectNode) config.json() : null,
                node.get("auth_header").text(null),
                node.get("auth_env").envName(null),
                false,
                new EventMapping(events, paths),
                null,
                null,
                maxConcurrency == null ? Integer.MAX_VALUE : maxConcurrency);
    }

    private static DatasetMapping dataset(ConfigNode node) {
        node.requireObject().onlyKeys(DatasetMapping.FIELDS);
        return node.located(
                () -> DatasetMapping.fromJson(node.json(), node.field()).validate());
    }

    private static JudgeConfig judge(String name, ConfigNode node) {
        node.requireObject()
                .onlyKeys(Set.of(
                        "model",
                        "base_url",
                        "api_key_env",
                        "stream",
                        "request_timeout_s",
                        "max_attempts",
                        "timeout_s"));
        return new JudgeConfig(name, model(node), node.get("timeout_s").seconds());
    }

    private static ModelOptions model(ConfigNode node) {
        String model = node.get("model").requiredText();
        Integer attempts = node.get("max_attempts").integer(1);
        RetryPolicy retry = attempts == null ? null : RetryPolicy.defaults().withMaxAttempts(attempts);
        Boolean stream = node.get("stream").flag();
        return new ModelOptions(
                model,
                node.get("base_url").text(null),
                node.get("api_key_env").envName(null),
                stream != null && stream,
                node.get("request_timeout_s").seconds(),
                retry);
    }

    /** {@return {@code defaults.environment}: an object, checked as a case's when the suite loads; null when absent} */
    private static ObjectNode environment(ConfigNode node) {
        if (!node.isPresent()) {
            return null;
        }
        if (!(node.json() instanceof ObjectNode environment)) {
            throw node.invalid("must be an environment object {mcp: {command: [...]}, state: URI}");
        }
        return environment;
    }

    /** {@return {@code defaults.sandbox}: the engine and the container of the cases that name none} */
    private static SandboxDefaults sandbox(ConfigNode node) {
        if (!node.isPresent()) {
            return new SandboxDefaults(null, null);
        }
        try {
            return SandboxDefaults.parse(node.json());
        } catch (AssayException e) {
            // The problem names sandbox.FIELD: the config names the same field under defaults.
            String field = String.valueOf(e.problem().details().get("field"));
            String name = field.startsWith(ContainerSpec.FIELD + ".")
                    ? field.substring(ContainerSpec.FIELD.length() + 1)
                    : "";
            throw (name.isEmpty() ? node : node.get(name)).invalid(e.problem().message());
        }
    }

    /**
     * {@return what {@code defaults} says about every run}: all of it but the default target and the database, which
     * choose what runs and where it is stored rather than describe a run; {@code models} resolved against the file's
     * targets
     */
    private static RunSettings defaults(ConfigNode node, Map<String, SubjectConfig> subjects) {
        if (!node.isPresent()) {
            return new RunSettings();
        }
        node.requireObject()
                .onlyKeys(Set.of(
                        "target",
                        "concurrency",
                        "timeout_s",
                        "weights",
                        "scoring",
                        "db",
                        "judge_cache",
                        "user_model",
                        "user_base_url",
                        "user_api_key_env",
                        "environment",
                        "sandbox",
                        "max_cost_usd",
                        "run_max_tokens",
                        "case_max_tokens",
                        "cluster_by",
                        "reducer",
                        "models",
                        "judge_min_kappa"));
        SandboxDefaults sandbox = sandbox(node.get("sandbox"));
        String subject = node.get("target").text(null);
        if (subject != null && !subjects.containsKey(subject)) {
            throw node.get("target").invalid("names no target of 'targets' " + subjects.keySet());
        }
        ConfigNode models = node.get("models");
        List<String> modelNames = models.isPresent() ? models.texts() : List.of();
        if (subject != null && !modelNames.isEmpty()) {
            throw models.invalid("give 'target' or 'models', not both");
        }
        for (int i = 0; i < modelNames.size(); i++) {
            SubjectConfig named = subjects.get(modelNames.get(i));
            if (named != null && named.model() == null) {
                throw models.element(i).invalid("names target '" + modelNames.get(i) + "', which is not a model");
            }
        }
        Weights.Scoring preset = null;
        ConfigNode scoring = node.get("scoring");
        if (scoring.isPresent()) {
            try {
                preset = Weights.Scoring.of(scoring.text(null));
            } catch (AssayException e) {
                throw scoring.invalid("must be assay or reference");
            }
        }
        Map<String, Double> weights = null;
        if (node.get("weights").isPresent()) {
            var byDimension = new LinkedHashMap<String, Double>();
            node.get("weights").entries().forEach((dimension, weight) -> {
                Double value = weight.number();
                if (value == null || value < 0) {
                    throw weight.invalid("must be a number >= 0");
                }
                byDimension.put(dimension, value);
            });
            weights = byDimension;
        }
        return new RunSettings()
                .concurrency(node.get("concurrency").integer(1))
                .timeout(node.get("timeout_s").seconds())
                .scoring(preset)
                .weights(weights)
                .judgeCache(node.get("judge_cache").flag())
                .userModel(node.get("user_model").text(null))
                .userBaseUrl(node.get("user_base_url").text(null))
                .userApiKeyEnv(node.get("user_api_key_env").envName(null))
                .environment(environment(node.get("environment")))
                .sandbox(sandbox.engine())
                .container(sandbox.container())
                .maxCostUsd(nonNegative(node.get("max_cost_usd"), false))
                .runMaxTokens(longOrNull(node.get("run_max_tokens").integer(0)))
                .caseMaxTokens(longOrNull(node.get("case_max_tokens").integer(1)))
                .clusterBy(node.get("cluster_by").text(null))
                .reducer(reducer(node.get("reducer")))
                // Each entry a model target, its endpoint and key its own, or a model as --model takes it.
                .models(
                        modelNames.isEmpty()
                                ? null
                                : modelNames.stream()
                                        .map(name -> subjects.containsKey(name)
                                                ? subjects.get(name).model()
                                                : ModelOptions.of(name))
                                        .toList())
                .judgeMinKappa(judgeMinKappa(node.get("judge_min_kappa")));
    }

    /** {@return {@code defaults.reducer}; null when absent} */
    private static Reducer reducer(ConfigNode node) {
        String name = node.text(null);
        try {
            return name == null ? null : Reducer.of(name);
        } catch (IllegalArgumentException e) {
            throw node.invalid("must be mean, majority, max, pass_at_k or pass_hat_k");
        }
    }

    private static Double judgeMinKappa(ConfigNode node) {
        Double value = node.number();
        if (node.isPresent() && (value == null || value < -1 || value > 1)) {
            throw node.invalid("must be a number from -1 to 1");
        }
        return value;
    }

    private static Long longOrNull(Integer value) {
        return value == null ? null : value.longValue();
    }

    /** {@return the target with this name} @throws AssayException {@code config.unknown_target} listing the names */
    public SubjectConfig subject(String name) {
        SubjectConfig subject = subjects.get(name);
        if (subject == null) {
            throw new AssayException(Problem.of(
                            "config.unknown_target",
                            "no target '" + name + "' in " + file + "; known: " + String.join(", ", subjects.keySet()))
                    .withDetail("file", file.toString())
                    .withDetail("field", "targets"));
        }
        return subject;
    }

    /**
     * {@return what this file says about a run: its defaults, and the named target with its MCP servers}
     *
     * @param subjectName the target to evaluate; null for none (another source names the system under test, or the
     *     defaults' {@code models} do)
     * @throws AssayException {@code config.unknown_target}
     */
    public RunSettings settings(String subjectName) {
        RunSettings settings = defaults();
        if (subjectName == null) {
            return settings;
        }
        SubjectConfig named = subject(subjectName);
        settings.models(null)
                .model(named.model())
                .agentService(named.agentService())
                .replay(named.replay());
        if (named.model() != null) {
            settings.toolMode(named.agent().toolMode())
                    .maxSteps(named.agent().maxSteps())
                    .temperature(named.agent().temperature())
                    .samplingSeed(named.agent().seed())
                    .maxTokens(named.agent().maxTokens())
                    .mcpServers(mcpServersFor(named));
        }
        return settings;
    }

    /**
     * {@return what this file says about a run's judges alone: its judge models, whether their answers are reused
     * across runs, and the kappa below which a report warns}: the server's settings under every run it starts
     */
    public RunSettings judgeSettings() {
        return defaults.judging();
    }

    /** {@return the MCP servers a target gets: those it names, or all when it names none} */
    public List<McpServerConfig> mcpServersFor(SubjectConfig subject) {
        if (subject.mcp() == null) {
            return mcpServers;
        }
        return mcpServers.stream()
                .filter(server -> subject.mcp().contains(server.name()))
                .toList();
    }
}
