package dev.assay.code.internal;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.SandboxLimits;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Compiles Java code with {@code javac -parameters} next to {@code AssayHarness.java} and runs it, all inside the
 * sandbox. {@code class Solution} methods are bound by parameter name with positional fallback; ListNode/TreeNode are
 * provided (as on judge sites) unless the code defines them; the usual {@code java.util} imports are added. The harness
 * reads JSON with the Jackson jars Assay itself runs with.
 */
final class JavaRunner implements LanguageRunner {
    private static final String HARNESS = LanguageRunner.resource("AssayHarness.java");
    private static final String IMPORTS =
            "import java.util.*; import java.util.function.*; " + "import java.util.stream.*; import java.math.*;\n";
    private static final Pattern PUBLIC_CLASS = Pattern.compile("\\bpublic\\s+(?:final\\s+)?class\\s+(\\w+)");
    /** The JVM reserves far more address space than its heap; -Xmx is what really bounds its memory. */
    private static final long MIN_ADDRESS_SPACE = 8L << 30;
    /** Compilation happens inside the same sandbox run, before the first test. */
    private static final Duration COMPILE_TIME = Duration.ofSeconds(30);

    private final List<Path> jacksonJars;

    /** A runner whose harness reads JSON with the Jackson jars Assay runs with. */
    JavaRunner() {
        this(JacksonPath.JARS);
    }

    /** A runner whose harness reads JSON with these Jackson jars (shown read-only in the sandbox). */
    JavaRunner(List<Path> jacksonJars) {
        this.jacksonJars = List.copyOf(jacksonJars);
    }

    @Override
    public HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits) {
        var files = new LinkedHashMap<String, String>();
        Matcher publicClass = PUBLIC_CLASS.matcher(code);
        files.put((publicClass.find() ? publicClass.group(1) : "Solution") + ".java", IMPORTS + code);
        if (!Pattern.compile("\\bclass\\s+ListNode\\b").matcher(code).find()) {
            files.put(
                    "ListNode.java",
                    "public class ListNode { public int val; public ListNode next; "
                            + "public ListNode() {} public ListNode(int val) { this.val = val; } "
                            + "public ListNode(int val, ListNode next) { this.val = val; this.next = next; } }\n");
        }
        if (!Pattern.compile("\\bclass\\s+TreeNode\\b").matcher(code).find()) {
            files.put(
                    "TreeNode.java",
                    "public class TreeNode { public int val; public TreeNode left; "
                            + "public TreeNode right; public TreeNode() {} public TreeNode(int val) { this.val = val; } "
                            + "public TreeNode(int val, TreeNode left, TreeNode right) { this.val = val; this.left = left; "
                            + "this.right = right; } }\n");
        }
        files.put("AssayHarness.java", HARNESS);
        long heapMiB = Math.max(64, limits.memoryBytes() >> 20);
        String bin = Path.of(System.getProperty("java.home"), "bin").toString();
        String javac = Files.isExecutable(Path.of(bin, "javac")) ? bin + "/javac" : "javac";
        String script = "\"$1\" -J-Xmx256m -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -nowarn -parameters "
                + "-encoding UTF-8 -cp \"$0\" -d classes *.java && exec \"$2\" -Xmx" + heapMiB + "m -XX:+UseSerialGC "
                + "-XX:TieredStopAtLevel=1 -Xss64m -cp \"classes:$0\" AssayHarness";
        var javaLimits = new SandboxLimits(
                limits.wallTime().plus(COMPILE_TIME),
                Math.max(limits.memoryBytes(), MIN_ADDRESS_SPACE),
                limits.maxProcesses(),
                limits.maxOutputBytes());
        // The Jackson jars are shown read-only where they are, which may be under the host's /tmp.
        String classpath = jacksonJars.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        return new HarnessRun.Plan(
                files,
                List.of("/bin/sh", "-c", script, classpath, javac, bin + "/java"),
                config,
                caseCount,
                javaLimits,
                jacksonJars);
    }

    /** Where Jackson's classes are loaded from (separate jars, or one shaded jar). */
    private static final class JacksonPath {
        static final List<Path> JARS = locate();

        private static List<Path> locate() {
            Set<Path> paths = new LinkedHashSet<>();
            for (Class<?> type : List.of(ObjectMapper.class, JsonFactory.class, JsonProperty.class)) {
                try {
                    paths.add(Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI()));
                } catch (URISyntaxException | NullPointerException e) {
                    throw new IllegalStateException("cannot locate Jackson for the Java harness", e);
                }
            }
            return List.copyOf(paths);
        }
    }
}
