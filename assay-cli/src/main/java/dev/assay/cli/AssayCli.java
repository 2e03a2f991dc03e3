package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.model.ChatModel;
import dev.assay.model.ChatModels;
import dev.assay.model.ModelOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code assay} command. Each subcommand is a thin edge over the engine, the store and the reporters in assay-core;
 * exit codes are listed in {@link ExitCodes}.
 */
@Command(
        name = "assay",
        mixinStandardHelpOptions = true,
        versionProvider = AssayCli.Version.class,
        description = "Evaluate LLMs and tool-using agents: capability suites, code questions, dialog replay.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the command succeeded (for run: the run finished and met --threshold)",
            "1:a run finished but missed --threshold",
            "2:invalid usage or invalid input (a bad option, an invalid suite)",
            "3:could not run (database, model configuration or credentials, sandbox), the run was interrupted, "
                    + "or every judged item is an error (the run failed)",
            "130:the run was cancelled by Ctrl-C (143: by SIGTERM); finished items are kept"
        })
public final class AssayCli implements Callable<Integer> {
    /**
     * The subcommands, in the order the usage lists them, before {@code dialog} and {@code help}. Only the one a
     * command line names is built: picocli reads every option of every command it is given, a tenth of a short run's
     * time.
     */
    private static final List<Class<?>> COMMANDS = List.of(
            InitCommand.class,
            RunCommand.class,
            RunsCommand.class,
            CasesCommand.class,
            CodeCommand.class,
            CacheCommand.class,
            PlanCommand.class,
            ReviewCommand.class,
            JudgesCommand.class,
            ServeCommand.class,
            ViewCommand.class,
            WorkerCommand.class);

    private static final String DIALOG = "dialog";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    public static void main(String[] args) {
        var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        var err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(out, err, System.getenv(), args));
    }

    /**
     * Runs a command line with the given streams and environment; tests call this instead of {@link #main}.
     *
     * @param env the environment variables the command may read (ASSAY_HOME, API keys named by options)
     */
    public static int run(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) {
        PrintWriter escapedErr = TerminalText.writer(err);
        return run(out, escapedErr, env, chatModels(env, escapedErr), args);
    }

    /**
     * {@return the command for these arguments}: the root with the subcommand they name, or with every subcommand when
     * they name none of them
     */
    static CommandLine commandLine(Map<String, String> env, Function<ModelOptions, ChatModel> models, String... args) {
        var commandLine = new CommandLine(new AssayCli(), new EnvironmentFactory(env));
        String named = subcommandNamed(args);
        for (Class<?> command : COMMANDS) {
            if (named == null || named.equals(nameOf(command))) {
                commandLine.addSubcommand(command);
            }
        }
        if (named == null || named.equals(DIALOG)) {
            commandLine.addSubcommand(DIALOG, new DialogCommand(models));
        }
        if (named == null) {
            commandLine.addSubcommand("help", new CommandLine.HelpCommand());
        }
        return commandLine;
    }

    /**
     * {@return the subcommand a command line names, when it names one}; null for the root's own options, {@code help},
     * or a word that is no subcommand (the usage and picocli's suggestions then list every one)
     */
    private static String subcommandNamed(String... args) {
        for (String argument : args) {
            if (argument.startsWith("-")) {
                continue;
            }
            if (argument.equals(DIALOG)) {
                return DIALOG;
            }
            // An alias (eval for run) names its command.
            return COMMANDS.stream()
                    .filter(command -> argument.equals(nameOf(command))
                            || List.of(command.getAnnotation(Command.class).aliases())
                                    .contains(argument))
                    .map(AssayCli::nameOf)
                    .findFirst()
                    .orElse(null);
        }
        return null;
    }

    private static String nameOf(Class<?> command) {
        return command.getAnnotation(Command.class).name();
    }

    /** {@return how commands make the chat models that options describe, their retry lines going to {@code err}} */
    static Function<ModelOptions, ChatModel> chatModels(Map<String, String> env, PrintWriter err) {
        return options -> ChatModels.chatModel(options, env::get, line -> err.println("  " + TerminalText.line(line)));
    }

    /**
     * Runs a command line whose {@code dialog} command makes its chat models with {@code models} (tests pass scripted
     * ones).
     */
    static int run(
            PrintWriter out,
            PrintWriter err,
            Map<String, String> env,
            Function<ModelOptions, ChatModel> models,
            String... args) {
        var commandLine = commandLine(env, models, args);
        // Everything a command prints may hold text from a model, an endpoint or a file: none reaches the terminal
        // raw. The usage is printed without colours, whose escape sequences would be shown as text.
        commandLine.setOut(TerminalText.writer(out));
        commandLine.setErr(TerminalText.writer(err));
        commandLine.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        // One line naming the option instead of picocli's message followed by the whole usage text.
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            CommandLine line = exception.getCommandLine();
            line.getErr()
                    .printf(
                            "error: %s (see '%s --help')%n",
                            exception.getMessage(), line.getCommandSpec().qualifiedName());
            CommandLine.UnmatchedArgumentException.printSuggestions(exception, line.getErr());
            return ExitCodes.USAGE;
        });
        commandLine.setExecutionExceptionHandler((exception, line, parseResult) -> {
            if (exception instanceof AssayException assay) {
                Problems.listed(assay.problem()).forEach(listed -> line.getErr().println("error: " + listed));
                line.getErr().println("error: " + Problems.describe(assay.problem()));
                return ExitCodes.forProblem(assay.problem());
            }
            if (exception instanceof IllegalArgumentException invalid) {
                // The core's records refuse impossible settings this way (concurrency 0 from a configuration
                // file, say): what the user gave, so a usage error, in one line.
                line.getErr().println("error: " + invalid.getMessage());
                return ExitCodes.USAGE;
            }
            // picocli's default would be 1, which here means "threshold missed": a CI job must not read a crash so.
            line.getErr().println("error: " + exception);
            if (!(exception instanceof IOException || exception instanceof UncheckedIOException)) {
                exception.printStackTrace(line.getErr());
            }
            return ExitCodes.CANNOT_RUN;
        });
        int code;
        try {
            code = commandLine.execute(args);
        } catch (ExceptionInInitializerError failed) {
            // Plug-ins found once per process are found while a class is initialised: a broken service file
            // (Plugins#load) surfaces as this error, which picocli does not hand to the handler above.
            if (!(failed.getCause() instanceof AssayException assay)) {
                throw failed;
            }
            commandLine.getErr().println("error: " + Problems.describe(assay.problem()));
            code = ExitCodes.forProblem(assay.problem());
        }
        commandLine.getOut().flush();
        commandLine.getErr().flush();
        return code;
    }

    /**
     * Reports the version and the commit it was built from, as the build recorded them in {@code build.properties}; a
     * build outside git (a source archive) has no commit to name.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            var build = new Properties();
            try (InputStream in = AssayCli.class.getResourceAsStream("build.properties")) {
                if (in != null) {
                    build.load(in);
                }
            }
            String version = build.getProperty("git.build.version", "development build");
            String commit = build.getProperty("git.commit.id.abbrev", "");
            if (commit.isEmpty()) {
                return new String[] {"assay " + version};
            }
            String dirty = Boolean.parseBoolean(build.getProperty("git.dirty")) ? ", with uncommitted changes" : "";
            return new String[] {
                "assay " + version + " (commit " + commit + ", " + build.getProperty("git.commit.time") + dirty + ")"
            };
        }
    }
}
