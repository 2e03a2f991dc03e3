package dev.assay.report;

import dev.assay.result.Item;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code junit.xml} for CI systems: one test suite per dimension, one test case per item; failed and partial items are
 * failures, error items are errors, skipped and cancelled items are skipped.
 */
final class JUnitReporter implements Reporter {
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
        var text = new StreamedText(out);
        StringBuilder xml = text.text();
        Run run = report.run();
        // Counted first, then written dimension by dimension: the items are read again for each dimension rather than
        // held, so a run of any size is written in the memory of one page.
        Map<String, int[]> byDimension = new LinkedHashMap<>();
        for (Item item : report.briefItems()) {
            int[] counts = byDimension.computeIfAbsent(item.dimension(), dimension -> new int[4]);
            counts[0]++;
            switch (item.status()) {
                case FAILED, PARTIAL -> counts[1]++;
                case ERROR -> counts[2]++;
                case SKIPPED, CANCELLED -> counts[3]++;
                case PASSED -> {}
            }
        }
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuites name=\"")
                .append(attr("assay " + run.caseSet()))
                .append("\" tests=\"")
                .append(report.briefItems().size())
                .append("\" time=\"")
                .append(run.elapsedS())
                .append("\">\n");
        for (var suite : byDimension.entrySet()) {
            String dimension = suite.getKey();
            int[] counts = suite.getValue();
            xml.append("  <testsuite name=\"")
                    .append(attr(dimension))
                    .append("\" tests=\"")
                    .append(counts[0])
                    .append("\" failures=\"")
                    .append(counts[1])
                    .append("\" errors=\"")
                    .append(counts[2])
                    .append("\" skipped=\"")
                    .append(counts[3])
                    .append("\">\n");
            for (Item item : report.briefItems()) {
                if (item.dimension().equals(dimension)) {
                    testCase(xml, run, item);
                    text.flushIfFull();
                }
            }
            xml.append("  </testsuite>\n");
        }
        xml.append("</testsuites>\n");
        text.finish();
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
