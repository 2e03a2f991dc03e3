package dev.assay.report;

import dev.assay.result.Item;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
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
        out.write(render(report).getBytes(StandardCharsets.UTF_8));
    }

    static String render(RunReport report) {
        Run run = report.run();
        Map<String, List<Item>> byDimension = new LinkedHashMap<>();
        report.items()
                .forEach(item -> byDimension
                        .computeIfAbsent(item.dimension(), d -> new java.util.ArrayList<>())
                        .add(item));
        var xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuites name=\"")
                .append(attr("assay " + run.caseSet()))
                .append("\" tests=\"")
                .append(report.items().size())
                .append("\" time=\"")
                .append(run.elapsedS())
                .append("\">\n");
        byDimension.forEach((dimension, items) -> {
            long failures = items.stream()
                    .filter(i -> i.status().name().matches("FAILED|PARTIAL"))
                    .count();
            long errors = items.stream()
                    .filter(i -> i.status().name().equals("ERROR"))
                    .count();
            long skipped = items.stream().filter(i -> !i.status().isScored()).count();
            xml.append("  <testsuite name=\"")
                    .append(attr(dimension))
                    .append("\" tests=\"")
                    .append(items.size())
                    .append("\" failures=\"")
                    .append(failures)
                    .append("\" errors=\"")
                    .append(errors)
                    .append("\" skipped=\"")
                    .append(skipped)
                    .append("\">\n");
            for (Item item : items) {
                xml.append("    <testcase classname=\"")
                        .append(attr(run.caseSet() + "." + dimension))
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
                                        item.error() == null
                                                ? "error"
                                                : item.error().type()))
                                .append("\"/>\n")
                                .append("    </testcase>\n");
                    case SKIPPED, CANCELLED ->
                        xml.append(">\n      <skipped message=\"")
                                .append(reason)
                                .append("\"/>\n    </testcase>\n");
                }
            }
            xml.append("  </testsuite>\n");
        });
        return xml.append("</testsuites>\n").toString();
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
