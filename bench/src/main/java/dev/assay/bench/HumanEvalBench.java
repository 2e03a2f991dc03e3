package dev.assay.bench;

import dev.assay.cases.Case;
import dev.assay.code.CodeGrader;
import dev.assay.code.CodeQuestion;
import dev.assay.code.Grade;
import dev.assay.code.QuestionFiles;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.Sandboxes;
import dev.assay.sandbox.UnsandboxedSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Grades HumanEval's 164 canonical solutions end to end (harness, sandbox, result channel) and measures the floor: the
 * same number of bare {@code python3 -c pass} processes through the same sandbox and directly on the host. Usage:
 * {@code HumanEvalBench [path/to/HumanEval.jsonl] [parallelism]}; the file is otherwise found as
 * {@code shared/data/humaneval/HumanEval.jsonl} beside a parent directory.
 */
public final class HumanEvalBench {
    private HumanEvalBench() {}

    public static void main(String[] args) throws Exception {
        Path data = args.length > 0
                ? Path.of(args[0])
                : find("humaneval/HumanEval.jsonl")
                        .orElseThrow(() -> new IllegalStateException(
                                "HumanEval.jsonl not found; pass its path as the first argument"));
        int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Sandbox sandbox = Sandboxes.detect(false);
        List<Case> tasks = QuestionFiles.read(data);
        var grader = new CodeGrader(sandbox, CodeGrader.Options.defaults());
        System.out.printf(
                "HumanEval bench: %d tasks, sandbox %s (%s), parallelism %d, %d CPUs%n",
                tasks.size(),
                sandbox.kind(),
                sandbox,
                parallelism,
                Runtime.getRuntime().availableProcessors());

        long started = System.nanoTime();
        List<Grade> grades = inParallel(
                parallelism,
                tasks.stream()
                        .<Callable<Grade>>map(task -> () -> {
                            CodeQuestion question = CodeQuestion.of(task, null);
                            return grader.gradeCode(
                                    question,
                                    task.attributes().get("canonical_solution").asText());
                        })
                        .toList());
        Duration graded = Duration.ofNanos(System.nanoTime() - started);
        int passed = 0;
        for (int i = 0; i < grades.size(); i++) {
            if (grades.get(i).allPassed()) {
                passed++;
            } else {
                System.out.printf(
                        "  FAILED %s: %s%n", tasks.get(i).id(), grades.get(i).cases());
            }
        }
        System.out.printf(
                "graded:               %d/%d passed in %s (%.1f ms per task)%n",
                passed, tasks.size(), seconds(graded), graded.toMillis() / (double) tasks.size());

        Duration sandboxFloor = floor(sandbox, tasks.size(), parallelism);
        System.out.printf(
                "floor, sandboxed:     %d x python3 -c pass in %s (%.1f ms each)%n",
                tasks.size(), seconds(sandboxFloor), sandboxFloor.toMillis() / (double) tasks.size());
        Duration directFloor = floor(new UnsandboxedSandbox(), tasks.size(), parallelism);
        System.out.printf(
                "floor, direct:        %d x python3 -c pass in %s (%.1f ms each)%n",
                tasks.size(), seconds(directFloor), directFloor.toMillis() / (double) tasks.size());
        System.exit(passed == tasks.size() ? 0 : 1);
    }

    private static Duration floor(Sandbox sandbox, int count, int parallelism) throws Exception {
        Path dir = Files.createTempDirectory("assay-bench");
        try {
            var request = new SandboxRequest(List.of(python(), "-c", "pass"), dir, Map.of(), "", null);
            long started = System.nanoTime();
            inParallel(
                    parallelism,
                    java.util.stream.IntStream.range(0, count)
                            .<Callable<Object>>mapToObj(i -> () -> sandbox.run(request))
                            .toList());
            return Duration.ofNanos(System.nanoTime() - started);
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    /** The interpreter the grader resolves, so the floor does not pay for a version-manager shim. */
    private static String python() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        process.waitFor();
        return path.isEmpty() ? "python3" : path;
    }

    private static <T> List<T> inParallel(int parallelism, List<Callable<T>> jobs) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(parallelism)) {
            var futures = new ArrayList<Future<T>>();
            for (Callable<T> job : jobs) {
                futures.add(pool.submit(job));
            }
            var results = new ArrayList<T>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }

    private static Optional<Path> find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data").resolve(relative);
            if (Files.exists(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String seconds(Duration duration) {
        return String.format("%.2f s", duration.toMillis() / 1000.0);
    }
}
