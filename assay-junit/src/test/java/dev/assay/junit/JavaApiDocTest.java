package dev.assay.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/java-api.md shows code that compiles against the published modules, and its JUnit example is the example
 * project's test, which the build runs (examples/junit/invoker.properties): a page that drifts from the API fails here.
 */
class JavaApiDocTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern CLASS = Pattern.compile("^(?:public )?(?:final )?class (\\w+)", Pattern.MULTILINE);

    private static List<String> javaBlocks() throws IOException {
        Matcher block = JAVA_BLOCK.matcher(Files.readString(ROOT.resolve("docs/java-api.md")));
        var blocks = new ArrayList<String>();
        while (block.find()) {
            blocks.add(block.group(1));
        }
        return blocks;
    }

    @Test
    void the_junit_example_is_the_example_projects_test() throws IOException {
        String projectTest = Files.readString(ROOT.resolve("examples/junit/src/test/java/example/SuiteTest.java"));

        assertThat(javaBlocks()).contains(projectTest);
    }

    @Test
    void every_java_example_compiles_against_the_published_modules(@TempDir Path work) throws IOException {
        var arguments = new ArrayList<>(List.of(
                "--release",
                "21",
                "-d",
                work.resolve("classes").toString(),
                "-cp",
                System.getProperty("java.class.path")));
        List<String> blocks = javaBlocks();
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(2);
        for (String block : blocks) {
            Matcher packageName = PACKAGE.matcher(block);
            Matcher className = CLASS.matcher(block);
            assertThat(className.find()).as("a class in\n%s", block).isTrue();
            Path directory = work.resolve("src")
                    .resolve(packageName.find() ? packageName.group(1).replace('.', '/') : "");
            Path source = Files.createDirectories(directory).resolve(className.group(1) + ".java");
            Files.writeString(source, block);
            arguments.add(source.toString());
        }
        var errors = new ByteArrayOutputStream();

        int exitCode = ToolProvider.getSystemJavaCompiler().run(null, null, errors, arguments.toArray(String[]::new));

        assertThat(exitCode).as(errors.toString(StandardCharsets.UTF_8)).isZero();
    }
}
