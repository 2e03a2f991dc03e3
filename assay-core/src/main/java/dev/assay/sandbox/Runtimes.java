package dev.assay.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The language runtimes a sandboxed command may use, found once on this machine: Python 3, Node.js and the JDK Assay
 * itself runs on. A runtime installed outside the system directories (pyenv under a home directory, an SDK manager's
 * JDK) is made visible in the sandbox by its installation directory alone, read-only, never the home directory around
 * it. Thread-safe and immutable.
 *
 * @param python the real Python 3 executable, when there is one
 * @param node the real Node.js executable, when there is one
 * @param javaHome the JDK Assay runs on
 * @param prefixes the installation directories to bind read-only, outside the system directories
 * @param binDirs the directories that hold the runtimes' programs, first on the sandbox's PATH
 */
public record Runtimes(
        Optional<Path> python, Optional<Path> node, Path javaHome, List<Path> prefixes, List<Path> binDirs) {
    /** Directories every sandbox shows anyway; a runtime under one of them needs nothing more. */
    static final List<Path> SYSTEM_DIRS = List.of(
            Path.of("/usr"),
            Path.of("/bin"),
            Path.of("/sbin"),
            Path.of("/lib"),
            Path.of("/lib32"),
            Path.of("/lib64"),
            Path.of("/libx32"));

    public Runtimes {
        prefixes = List.copyOf(prefixes);
        binDirs = List.copyOf(binDirs);
    }

    /** No runtime beyond the system's: what the sandbox's start-up probe needs. */
    static final Runtimes NONE = new Runtimes(
            Optional.empty(), Optional.empty(), Path.of(System.getProperty("java.home")), List.of(), List.of());

    private static final class Found {
        static final Runtimes INSTANCE = detect();
    }

    /** {@return the runtimes of this machine, found on first use} */
    public static Runtimes find() {
        return Found.INSTANCE;
    }

    private static Runtimes detect() {
        // Python reports its own executable and installation prefix, through version-manager shims too.
        Optional<List<String>> pythonPaths =
                ask(List.of("python3", "-c", "import sys; print(sys.executable); print(sys.base_prefix)"));
        Optional<Path> python = pythonPaths
                .filter(lines -> lines.size() == 2 && lines.get(0).startsWith("/"))
                .map(lines -> Path.of(lines.get(0)));
        Optional<Path> node = ask(List.of("node", "-p", "process.execPath"))
                .filter(lines -> lines.size() == 1 && lines.get(0).startsWith("/"))
                .map(lines -> Path.of(lines.get(0)));
        Path javaHome = Path.of(System.getProperty("java.home"));
        Set<Path> prefixes = new LinkedHashSet<>();
        pythonPaths
                .filter(lines -> lines.size() == 2)
                .map(lines -> Path.of(lines.get(1)))
                .filter(Runtimes::outsideSystemDirs)
                .ifPresent(prefixes::add);
        node.map(Runtimes::realPath)
                .map(executable -> executable.getParent().getParent())
                .filter(Runtimes::outsideSystemDirs)
                .ifPresent(prefixes::add);
        if (outsideSystemDirs(realPath(javaHome))) {
            prefixes.add(realPath(javaHome));
        }
        Set<Path> binDirs = new LinkedHashSet<>();
        python.map(Path::getParent).ifPresent(binDirs::add);
        node.map(Path::getParent).ifPresent(binDirs::add);
        binDirs.add(javaHome.resolve("bin"));
        prefixes.removeIf(prefix -> !showable(prefix));
        return new Runtimes(python, node, javaHome, new ArrayList<>(prefixes), new ArrayList<>(binDirs));
    }

    /** {@return the PATH inside a sandbox: the runtimes' directories, then the system's} */
    public String path() {
        var dirs = new LinkedHashSet<String>();
        binDirs.forEach(dir -> dirs.add(dir.toString()));
        dirs.addAll(List.of("/usr/local/bin", "/usr/bin", "/bin"));
        return String.join(":", dirs);
    }

    /**
     * {@return whether a runtime's directory may be shown: not if it would show the user's home, Assay's working
     * directory or {@code ASSAY_HOME} with it (a Python whose prefix is the home directory itself)}
     */
    static boolean showable(Path prefix) {
        return showable(prefix, System.getenv());
    }

    /**
     * As {@link #showable(Path)}, with this environment. The home is both {@code $HOME} and the JVM's
     * {@code user.home}, which comes from the account's entry: they differ where a container, a CI job or {@code sudo}
     * set {@code HOME}, and either may hold what the model must not see.
     */
    static boolean showable(Path prefix, Map<String, String> env) {
        var hidden = new ArrayList<Path>();
        hidden.add(Path.of(System.getProperty("user.home")));
        hidden.add(Path.of(System.getProperty("user.dir")));
        for (String variable : List.of("HOME", "ASSAY_HOME")) {
            String directory = env.get(variable);
            if (directory != null && !directory.isBlank()) {
                hidden.add(Path.of(directory));
            }
        }
        Path real = realPath(prefix);
        return hidden.stream().map(Runtimes::realPath).noneMatch(path -> path.startsWith(real));
    }

    static boolean outsideSystemDirs(Path path) {
        Path real = realPath(path);
        return SYSTEM_DIRS.stream().noneMatch(real::startsWith);
    }

    static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    private static Optional<List<String>> ask(List<String> command) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor(20, TimeUnit.SECONDS) && process.exitValue() == 0 && !out.isEmpty()) {
                return Optional.of(out.lines().toList());
            }
            process.destroyForcibly();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }
}
