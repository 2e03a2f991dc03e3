package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay init}: writes a starter {@code assay.yaml} and a small suite into a project, so that a new user's first
 * {@code assay run evals} works before they have written a case. Existing files are never overwritten unless
 * {@code --force} is given: a user's own settings are worth more than a template. The commands it suggests are spelt as
 * the user ran Assay ({@value #INVOKED_AS}, set by the launchers: {@code ./assay} in a source checkout, {@code assay}
 * when that name on the PATH is the launcher), from the project directory.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Write a starter assay.yaml and a small suite (evals/) for a new project.")
final class InitCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    /** The variable in which the launchers say how they were run. */
    static final String INVOKED_AS = "ASSAY_INVOKED_AS";

    /** The files written, as (template resource, path in the project). */
    private static final List<String[]> FILES = List.of(
            new String[] {"init/assay.yaml", "assay.yaml"},
            new String[] {"init/starter.en-US.yaml", "evals/starter.en-US.yaml"});

    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "0..1",
            paramLabel = "<dir>",
            defaultValue = ".",
            description = "The project directory (default: the current one); created when missing.")
    Path directory;

    @Option(names = "--force", description = "Overwrite files that already exist.")
    boolean force;

    private String invokedAs = "assay";

    @Override
    public void environment(Map<String, String> env) {
        String given = env.get(INVOKED_AS);
        invokedAs = given == null || given.isBlank() ? "assay" : given;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Path> targets =
                FILES.stream().map(file -> directory.resolve(file[1])).toList();
        if (!force) {
            for (Path path : targets) {
                if (Files.exists(path)) {
                    throw new AssayException(Problem.of(
                                    "config.file_exists",
                                    path + " already exists; keep it, or give --force to overwrite it")
                            .withDetail("file", path.toString()));
                }
            }
        }
        String assay = commandFrom(directory);
        List<Path> written = new ArrayList<>();
        for (int i = 0; i < FILES.size(); i++) {
            written.add(write(FILES.get(i)[0], targets.get(i), assay));
        }
        written.forEach(path -> out.println("wrote " + path));
        out.println();
        out.println("Next:");
        // The commands run from the project, so that its assay.yaml applies.
        if (!isCurrent(directory)) {
            out.println("  cd " + directory);
        }
        out.println("  " + assay + " cases validate evals      check the cases");
        out.println("  " + assay + " run evals                 run them on the offline model (they fail: it "
                + "answers a fixed text)");
        out.println("  " + assay + " run evals --target openai  run them on a real model (set OPENAI_API_KEY)");
        return ExitCodes.OK;
    }

    private static boolean isCurrent(Path directory) {
        return directory.toAbsolutePath().normalize().equals(Path.of("").toAbsolutePath());
    }

    /**
     * {@return the command that runs Assay from {@code project}}: a name found on the PATH or an absolute path as it
     * is, a launcher given as a relative path ({@code ./assay}) relative to the project ({@code ../assay} from a
     * project below the checkout)
     */
    String commandFrom(Path project) {
        if (!invokedAs.contains("/") || Path.of(invokedAs).isAbsolute() || isCurrent(project)) {
            return invokedAs;
        }
        Path launcher = Path.of(invokedAs).toAbsolutePath().normalize();
        String relative =
                project.toAbsolutePath().normalize().relativize(launcher).toString();
        return relative.contains("/") ? relative : "./" + relative;
    }

    private static Path write(String resource, Path path, String assay) {
        try (InputStream template = InitCommand.class.getResourceAsStream(resource)) {
            if (template == null) {
                throw new IllegalStateException("template missing from the jar: " + resource);
            }
            Path parent = path.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            String text = new String(template.readAllBytes(), StandardCharsets.UTF_8);
            Files.writeString(path, text.replace("{{assay}}", assay));
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
