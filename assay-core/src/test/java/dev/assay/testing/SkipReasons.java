package dev.assay.testing;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says once, when a module's tests have run, why tests were skipped: each reason (a disabled test's, or the message of
 * an assumption that did not hold, such as "no PostgreSQL at 127.0.0.1:5432") with the tests it skipped. Surefire
 * counts skipped tests but shows no reason, so a skip that should not have happened looked like any other. Registered
 * for every module whose tests use assay-core's test jar, through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener} in assay-core's test resources.
 * Thread-safe: tests may end on several threads.
 */
public final class SkipReasons implements TestExecutionListener {
    private static final String ASSUMPTION = "Assumption failed: ";

    private final PrintStream out;
    private final Map<String, List<String>> testsByReason = new TreeMap<>();

    /** Prints to standard output, where Surefire shows it after the module's tests. */
    public SkipReasons() {
        this(System.out);
    }

    /** @param out where the reasons are printed */
    public SkipReasons(PrintStream out) {
        this.out = out;
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        add(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            add(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        Map<String, List<String>> skipped;
        synchronized (testsByReason) {
            skipped = new TreeMap<>(testsByReason);
            testsByReason.clear();
        }
        if (skipped.isEmpty()) {
            return;
        }
        var text = new StringBuilder("Skipped, by reason:\n");
        skipped.forEach((reason, tests) -> text.append("  ")
                .append(tests.size())
                .append(" skipped: ")
                .append(reason)
                .append("\n      ")
                .append(String.join(", ", tests))
                .append('\n'));
        out.print(text);
        out.flush();
    }

    private void add(TestIdentifier test, String reason) {
        String why = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
        if (why.startsWith(ASSUMPTION)) {
            why = why.substring(ASSUMPTION.length());
        }
        synchronized (testsByReason) {
            testsByReason.computeIfAbsent(why, key -> new ArrayList<>()).add(name(test));
        }
    }

    /** {@return the test as a reader finds it: Class.method, or the class when all of it was skipped} */
    private static String name(TestIdentifier test) {
        TestSource source = test.getSource().orElse(null);
        if (source instanceof MethodSource method) {
            String className = method.getClassName();
            return className.substring(className.lastIndexOf('.') + 1) + "." + method.getMethodName();
        }
        if (source instanceof ClassSource type) {
            return type.getClassName().substring(type.getClassName().lastIndexOf('.') + 1);
        }
        return test.getDisplayName();
    }
}
