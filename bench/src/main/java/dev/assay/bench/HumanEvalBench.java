package dev.assay.bench;

import dev.assay.cases.Case;
import dev.assay.code.CodeGrader;
import dev.assay.code.CodeQuestion;
import dev.assay.code.Grade;
import dev.assay.code.QuestionFiles;
import dev.assay.sandbox.Runtimes;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.Sandboxes;
import dev.assay.sandbox.UnsandboxedSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Grades HumanEval's 164 canonical solutions end to end (harness, sandbox, result channel) and measures the floor: a
 * bare {@code python3 -I -c pass} (the interpreter started as the grader starts it) through the same sandbox and
 * directly on the host. The three are interleaved task by task, in an order that turns with every task, so that a
 * machine shared with other work weighs on each alike, and this is repeated for a few rounds: each round's ratio of
 * grading to sandboxed floor compares figures taken moments apart. With a parallelism above 1, that many workers do so
 * at once and the figures are the mean time of one grading or one start among them. Usage: {@code HumanEvalBench
 * [path/to/HumanEval.jsonl] [parallelism] [rounds]}; the file is otherwise found as
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
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Sandbox sandbox = Sandboxes.detect(false);
        List<Case> tasks = QuestionFiles.read(data);
        var grader = new CodeGrader(sandbox, CodeGrader.Options.defaults());
        // Found once per process, at the first command; found here, neither the first grading nor the first floor pays.
        String python = Runtimes.find().python().map(Path::toString).orElse("python3");
        System.out.printf(
                "HumanEval bench: %d tasks, sandbox %s (%s), parallelism %d, %d rounds, %d CPUs%n",
                tasks.size(),
                sandbox.kind(),
                sandbox,
                parallelism,
                rounds,
                Runtime.getRuntime().availableProcessors());

        Path dir = Files.createTempDirectory("assay-bench");
        boolean allPassed = true;
        try {
            var bare = new SandboxRequest(List.of(python, "-I", "-c", "pass"), dir, Map.of(), "", null);
            var direct = new UnsandboxedSandbox();
            var ratios = new ArrayList<Double>();
            for (int round = 1; round <= rounds; round++) {
                var graded = new LongAdder();
                var floor = new LongAdder();
                var directFloor = new LongAdder();
                var passed = new AtomicInteger();
                var next = new AtomicInteger();
                Callable<Void> worker = () -> {
                    for (int i; (i = next.getAndIncrement()) < tasks.size(); ) {
                        Case task = tasks.get(i);
                        for (int step = 0; step < 3; step++) {
                            switch ((i + step) % 3) {
                                case 0 -> {
                                    long started = System.nanoTime();
                                    Grade grade = grader.gradeCode(
                                            CodeQuestion.of(task, null),
                                            task.attributes()
                                                    .get("canonical_solution")
                                                    .asText());
                                    graded.add(System.nanoTime() - started);
                                    if (grade.allPassed()) {
                                        passed.incrementAndGet();
                                    } else {
                                        System.out.printf("  FAILED %s: %s%n", task.id(), grade.cases());
                                    }
                                }
                                case 1 -> floor.add(timed(() -> sandbox.run(bare)));
                                default -> directFloor.add(timed(() -> direct.run(bare)));
                            }
                        }
                    }
                    return null;
                };
                inParallel(parallelism, Collections.nCopies(parallelism, worker));
                double gradedMillis = graded.sum() / 1e6 / tasks.size();
                double floorMillis = floor.sum() / 1e6 / tasks.size();
                allPassed &= passed.get() == tasks.size();
                ratios.add(gradedMillis / floorMillis);
                System.out.printf(
                        "round %d: %d/%d passed, graded %.1f ms per task, floor %.1f ms sandboxed (%.1f ms direct),"
                                + " ratio %.2f%n",
                        round,
                        passed.get(),
                        tasks.size(),
                        gradedMillis,
                        floorMillis,
                        directFloor.sum() / 1e6 / tasks.size(),
                        gradedMillis / floorMillis);
            }
            ratios.sort(null);
            System.out.printf(
                    "median ratio of graded to sandboxed floor: %.2f (rounds: %s)%n",
                    ratios.get(ratios.size() / 2),
                    ratios.stream().map(r -> String.format("%.2f", r)).toList());
        } finally {
            Files.deleteIfExists(dir);
        }
        System.exit(allPassed ? 0 : 1);
    }

    private interface Run {
        void run() throws Exception;
    }

    private static long timed(Run run) throws Exception {
        long started = System.nanoTime();
        run.run();
        return System.nanoTime() - started;
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
}
