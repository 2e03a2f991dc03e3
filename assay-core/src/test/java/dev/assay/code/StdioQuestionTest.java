package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.code.internal.StdioExamples;
import dev.assay.sandbox.BubblewrapSandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Program-style questions: the samples are stdin and stdout of a whole program, compared as text outside. */
class StdioQuestionTest {
    private static CodeGrader grader;

    @BeforeAll
    static void sandbox() throws InterruptedException {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        grader = new CodeGrader(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(4), 1L << 30, 64));
    }

    private static final String SUM_ROWS = """
            <p>第一行给出整数 n，接下来 n 行每行给出若干个整数。对每一行输出这一行的和。</p>
            <h3>输入样例 1：</h3>
            <pre>2
            1 2 3
            10 -4
            </pre>
            <h3>输出样例 1：</h3>
            <pre>6
            6
            </pre>
            <h3>输入样例 2：</h3>
            <pre>1
            7</pre>
            <h3>输出样例 2：</h3>
            <pre>7</pre>
            <p>提示：数据范围 n ≤ 100。</p>
            """;

    private static Grade grade(String language, String code) throws InterruptedException {
        return grader.grade(new CodeQuestion("q", SUM_ROWS, language, "", List.of(), "", "", "", ""), code);
    }

    @Test
    void samples_are_parsed_as_program_input_and_output() {
        var samples = StdioExamples.parse(SUM_ROWS);

        assertThat(samples).extracting(StdioExamples.Sample::stdin).containsExactly("2\n1 2 3\n10 -4\n", "1\n7\n");
        assertThat(samples).extracting(StdioExamples.Sample::stdout).containsExactly("6\n6", "7");
        assertThat(StdioExamples.parse("Example 1:\nInput: nums = [1]\nOutput: 1"))
                .isEmpty();
    }

    @Test
    void a_right_program_passes_in_each_language_and_a_wrong_one_fails() throws InterruptedException {
        var python = grade("python", """
                ```python
                import sys
                lines = sys.stdin.read().split("\\n")
                n = int(lines[0])
                for line in lines[1:n + 1]:
                    print(sum(map(int, line.split())), end=" \\n")
                ```
                """);
        var java = grade("java", """
                import java.util.*;
                public class Main {
                    public static void main(String[] args) {
                        Scanner in = new Scanner(System.in);
                        int n = Integer.parseInt(in.nextLine().trim());
                        for (int i = 0; i < n; i++) {
                            long sum = 0;
                            for (String word : in.nextLine().trim().split("\\\\s+")) sum += Long.parseLong(word);
                            System.out.println(sum);
                        }
                    }
                }
                """);
        var javascript = grade("javascript", """
                const lines = require('fs').readFileSync(0, 'utf8').split('\\n');
                const n = Number(lines[0]);
                for (let i = 1; i <= n; i++) console.log(lines[i].trim().split(/\\s+/).map(Number).reduce((a, b) => a + b, 0));
                """);
        var wrong = grade("python", "print(6)\n");
        var crashing = grade("python", "raise SystemExit(3)\n");

        assertThat(python.allPassed()).as(python.cases().toString()).isTrue();
        assertThat(python.source()).isEqualTo("stdio");
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
        assertThat(javascript.allPassed()).as(javascript.cases().toString()).isTrue();
        assertThat(wrong.cases())
                .extracting(CaseResult::status)
                .containsExactly(CaseResult.Status.WRONG_ANSWER, CaseResult.Status.WRONG_ANSWER);
        assertThat(crashing.cases()).extracting(CaseResult::status).containsOnly(CaseResult.Status.RUNTIME_ERROR);
    }

    @Test
    void a_program_cannot_pass_by_linking_its_output_to_a_file_of_the_host() throws InterruptedException {
        var linking = grade("python", """
                import os
                for i in range(2):
                    try:
                        os.remove("out_%d" % i)
                    except FileNotFoundError:
                        pass
                    os.symlink("/etc/hostname", "out_%d" % i)
                print(6)
                print(6)
                """);

        assertThat(linking.cases().get(1).status()).isNotEqualTo(CaseResult.Status.PASSED);
    }
}
