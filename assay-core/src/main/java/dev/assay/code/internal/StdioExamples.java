package dev.assay.code.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample input and output of a program-style question ("Sample Input 1" / "输入样例" / "样例输入" and their outputs): text
 * a program reads on stdin and must print, kept as written (line by line, trailing spaces and blank lines at the ends
 * removed). Such questions have no function to call, so these samples are the tests.
 */
public final class StdioExamples {
    private static final String NUMBER = "\\s*#?\\s*(\\d*)\\s*[:：]?";
    private static final Pattern INPUT = Pattern.compile(
            "^\\s*(?:sample\\s+input|input\\s+sample|输入样例|样例输入|输入示例)" + NUMBER + "(.*)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern OUTPUT = Pattern.compile(
            "^\\s*(?:sample\\s+output|output\\s+sample|输出样例|样例输出|输出示例)" + NUMBER + "(.*)$", Pattern.CASE_INSENSITIVE);
    /** What ends a sample besides the next sample header. */
    private static final Pattern STOP = Pattern.compile(
            "^\\s*(?:提示|说明|样例解释|数据范围|注意|explanation|note|hint|constraints)\\b.*$|^\\s*(?:提示|说明|样例解释|数据范围|注意).*$",
            Pattern.CASE_INSENSITIVE);

    private StdioExamples() {}

    /** A sample: its label, what the program reads and what it must print. */
    public record Sample(String label, String stdin, String stdout) {}

    /** {@return the samples, inputs paired with outputs in order; empty for a question without sample headers} */
    public static List<Sample> parse(String description) {
        String[] lines =
                ExampleParser.plainText(description == null ? "" : description).split("\n", -1);
        List<String[]> inputs = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        StringBuilder current = null;
        boolean currentIsInput = false;
        String currentLabel = "";
        for (String line : lines) {
            Matcher input = INPUT.matcher(line);
            Matcher output = OUTPUT.matcher(line);
            boolean isInput = input.matches();
            boolean isOutput = !isInput && output.matches();
            if (isInput || isOutput || STOP.matcher(line).matches()) {
                close(current, currentIsInput, currentLabel, inputs, outputs);
                current = null;
                if (isInput || isOutput) {
                    Matcher header = isInput ? input : output;
                    current = new StringBuilder();
                    currentIsInput = isInput;
                    currentLabel = header.group(1);
                    if (!header.group(2).isBlank()) {
                        current.append(header.group(2).strip()).append('\n');
                    }
                }
                continue;
            }
            if (current != null) {
                current.append(line).append('\n');
            }
        }
        close(current, currentIsInput, currentLabel, inputs, outputs);
        var samples = new ArrayList<Sample>();
        for (int i = 0; i < Math.min(inputs.size(), outputs.size()); i++) {
            String number = inputs.get(i)[0].isEmpty() ? String.valueOf(i + 1) : inputs.get(i)[0];
            samples.add(new Sample("Sample " + number, inputs.get(i)[1], outputs.get(i)));
        }
        return samples;
    }

    private static void close(
            StringBuilder block, boolean input, String label, List<String[]> inputs, List<String> outputs) {
        if (block == null) {
            return;
        }
        String text = normalise(block.toString());
        if (input) {
            inputs.add(new String[] {label, text.isEmpty() ? "" : text + "\n"});
        } else {
            outputs.add(text);
        }
    }

    /** {@return the text with CRLF as LF, trailing spaces of each line and blank lines at both ends removed} */
    static String normalise(String text) {
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        var kept = new ArrayList<String>();
        for (String line : lines) {
            kept.add(line.stripTrailing());
        }
        int start = 0;
        int end = kept.size();
        while (start < end && kept.get(start).isEmpty()) {
            start++;
        }
        while (end > start && kept.get(end - 1).isEmpty()) {
            end--;
        }
        return String.join("\n", kept.subList(start, end));
    }
}
