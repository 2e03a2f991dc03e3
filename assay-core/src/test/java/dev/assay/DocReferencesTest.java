package dev.assay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Markdown files the Java sources cite exist in the repository: a comment that sends a reader to a document they
 * cannot open explains nothing. File names Assay writes ({@code report.md}) are outputs, not citations; so is the name
 * of a file it reads from a user's suite (a τ²-bench domain's {@code policy.md}).
 */
class DocReferencesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern CITATION = Pattern.compile("[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md\\b");
    private static final Set<String> NOT_CITATIONS = Set.of("report.md", "policy.md");

    @Test
    void every_markdown_file_a_java_source_cites_is_in_the_repository() throws IOException {
        List<String> missing = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(ROOT)) {
            for (Path source : sources.filter(DocReferencesTest::isSource).toList()) {
                Matcher citation = CITATION.matcher(Files.readString(source));
                while (citation.find()) {
                    String cited = citation.group();
                    if (!NOT_CITATIONS.contains(Path.of(cited).getFileName().toString()) && !exists(cited)) {
                        missing.add(ROOT.relativize(source) + ": " + cited);
                    }
                }
            }
        }
        assertThat(missing).as("citations of documents outside the repository").isEmpty();
    }

    /**
     * The pages under docs/ that a shipped file names exist: the README, every Markdown file (docs, examples), the
     * launchers, the distribution's files and every module's resources (the starter project {@code assay init} writes,
     * the web page). Case files are not read: a page named there is a file in a case's workspace.
     */
    @Test
    void every_docs_page_a_shipped_file_names_is_in_the_repository() throws IOException {
        Pattern page = Pattern.compile("\\bdocs/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md\\b");
        List<String> missing = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : files.filter(DocReferencesTest::isShipped).toList()) {
                String text;
                try {
                    text = Files.readString(file);
                } catch (java.nio.charset.MalformedInputException binary) {
                    continue; // an image or an archive names no page
                }
                Matcher named = page.matcher(text);
                while (named.find()) {
                    if (!Files.exists(ROOT.resolve(named.group()))) {
                        missing.add(ROOT.relativize(file) + ": " + named.group());
                    }
                }
            }
        }
        assertThat(missing).as("docs pages named by shipped files but missing").isEmpty();
    }

    private static boolean isShipped(Path path) {
        String text = ROOT.relativize(path).toString().replace('\\', '/');
        if (!Files.isRegularFile(path)
                || text.startsWith(".git/")
                || text.contains("/target/")
                || text.contains("node_modules/")) {
            return false;
        }
        return text.endsWith(".md")
                || text.equals("assay")
                || text.contains("/src/main/resources/")
                || text.contains("/src/dist/");
    }

    private static boolean isSource(Path path) {
        String text = path.toString();
        return text.endsWith(".java")
                && text.contains("/src/")
                && !text.contains("/target/")
                && !text.contains("/node_modules/")
                && !text.contains("/.git/");
    }

    /** A path is resolved against the repository root, a bare name looked for at the root and in docs/. */
    private static boolean exists(String cited) {
        if (cited.contains("/")) {
            return Files.exists(ROOT.resolve(cited));
        }
        return Files.exists(ROOT.resolve(cited))
                || Files.exists(ROOT.resolve("docs").resolve(cited));
    }
}
