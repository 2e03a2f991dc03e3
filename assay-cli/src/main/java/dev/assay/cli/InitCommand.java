package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay init}: writes a starter {@code assay.yaml} and a small suite into a project, so that a new user's first
 * {@code assay run evals} works before they have written a case. Existing files are never overwritten unless
 * {@code --force} is given: a user's own settings are worth more than a template.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Write a starter assay.yaml and a small suite (evals/) for a new project.")
final class InitCommand implements Callable<Integer> {
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
        List<Path> written = new ArrayList<>();
        for (int i = 0; i < FILES.size(); i++) {
            written.add(write(FILES.get(i)[0], targets.get(i)));
        }
        written.forEach(path -> out.println("wrote " + path));
        Path suite = directory.resolve("evals");
        out.println();
        out.println("Next:");
        out.println("  assay cases validate " + suite + "      check the cases");
        out.println("  assay run " + suite + "                 run them on the offline model (they fail: it "
                + "answers a fixed text)");
        out.println("  assay run " + suite + " --target openai  run them on a real model (set OPENAI_API_KEY)");
        if (!directory.equals(Path.of("."))) {
            out.println("Run these from " + directory + " so that its assay.yaml applies.");
        }
        return ExitCodes.OK;
    }

    private static Path write(String resource, Path path) {
        try (InputStream template = InitCommand.class.getResourceAsStream(resource)) {
            if (template == null) {
                throw new IllegalStateException("template missing from the jar: " + resource);
            }
            Path parent = path.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.write(path, template.readAllBytes());
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
