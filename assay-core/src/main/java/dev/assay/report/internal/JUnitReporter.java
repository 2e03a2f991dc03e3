package dev.assay.report.internal;

import dev.assay.report.Reporter;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code junit.xml} for CI systems: one test suite per dimension, one test case per item; failed and partial items are
 * failures, error items are errors, skipped and cancelled items are skipped.
 */
public final class JUnitReporter implements Reporter {
    @Override
    public String name() {
        return "junit";
    }

    @Override
    public String fileName() {
        return "junit.xml";
    }

    @Override
    public void write(RunReport report, OutputStream out) throws IOException {
        Run run = report.run();
        // One pass over the items: each dimension's test cases go to a scratch file of their own, then the suites are
        // written one after the other. A run of any size is written in the memory of one page, and its items are read
        // from the store once, not once per dimension.
        Map<String, Suite> suites = new LinkedHashMap<>();
        try {
            var xml = new StringBuilder();
            for (Item item : report.briefItems()) {
                Suite suite = suites.get(item.dimension());
                if (suite == null) {
                    suite = Suite.open();
                    suites.put(item.dimension(), suite);
                }
                xml.setLength(0);
                testCase(xml, run, item);
                suite.add(item, xml);
            }
            var text = new StreamedText(out);
            StringBuilder head = text.text();
            head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            head.append("<testsuites name=\"")
                    .append(attr("assay " + run.caseSet()))
                    .append("\" tests=\"")
                    .append(suites.values().stream()
                            .mapToInt(suite -> suite.counts().completed())
                            .sum())
                    .append("\" time=\"")
                    .append(run.elapsedS())
                    .append("\">\n");
            for (var entry : suites.entrySet()) {
                Suite suite = entry.getValue();
                Counts counts = suite.counts();
                head.append("  <testsuite name=\"")
                        .append(attr(entry.getKey()))
                        .append("\" tests=\"")
                        .append(counts.completed())
                        .append("\" failures=\"")
                        .append(counts.failed() + counts.partial())
                        .append("\" errors=\"")
                        .append(counts.error())
                        .append("\" skipped=\"")
                        .append(counts.skipped() + counts.cancelled())
                        .append("\">\n");
                text.finish();
                suite.copyTo(out);
                head.append("  </testsuite>\n");
            }
            head.append("</testsuites>\n");
            text.finish();
        } finally {
            for (Suite suite : suites.values()) {
                suite.delete();
            }
        }
    }

    /** One dimension's test cases as they are counted and written, kept in a scratch file until the end. */
    private static final class Suite {
        private final Path file;
        private final Writer cases;
        private Counts counts = Counts.ZERO;

        private Suite(Path file, Writer cases) {
            this.file = file;
            this.cases = cases;
        }

        static Suite open() throws IOException {
            Path file = Files.createTempFile("assay-junit-", ".xml");
            return new Suite(file, Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        }

        void add(Item item, CharSequence testCase) throws IOException {
            counts = counts.plus(item.status());
            cases.append(testCase);
        }

        Counts counts() {
            return counts;
        }

        void copyTo(OutputStream out) throws IOException {
            cases.flush();
            Files.copy(file, out);
        }

        void delete() throws IOException {
            try {
                cases.close();
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    private static void testCase(StringBuilder xml, Run run, Item item) {
        xml.append("    <testcase classname=\"")
                .append(attr(run.caseSet() + "." + item.dimension()))
                .append("\" name=\"")
                .append(attr(item.caseId()))
                .append("\" time=\"")
                .append(item.elapsedS())
                .append("\"");
        String reason = attr(ItemText.cut(ItemText.reason(item), 500));
        switch (item.status()) {
            case PASSED -> xml.append("/>\n");
            case FAILED, PARTIAL ->
                xml.append(">\n      <failure message=\"")
                        .append(reason)
                        .append("\" type=\"")
                        .append(item.status().wireName())
                        .append("\">")
                        .append(text("score " + item.score() + "\nfinal answer: " + item.finalAnswer()))
                        .append("</failure>\n    </testcase>\n");
            case ERROR ->
                xml.append(">\n      <error message=\"")
                        .append(reason)
                        .append("\" type=\"")
                        .append(attr(
                                item.error() == null ? "error" : item.error().type()))
                        .append("\"/>\n")
                        .append("    </testcase>\n");
            case SKIPPED, CANCELLED ->
                xml.append(">\n      <skipped message=\"").append(reason).append("\"/>\n    </testcase>\n");
        }
    }

    private static String attr(String value) {
        return text(value).replace("\"", "&quot;").replace("\n", "&#10;");
    }

    /** XML 1.0 forbids most control characters even escaped, and model output may contain them. */
    private static String text(String value) {
        return value.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replaceAll("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]", "\uFFFD");
    }
}
