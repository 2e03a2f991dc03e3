package dev.assay.check.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TextMatchingTest {
    private static final String ANSWER = "a.b costs $1 (\\Q not \\E) — façade\nnext a.b line";

    @Test
    void a_fragment_matched_as_written_is_found_where_a_quoted_pattern_finds_it() {
        for (TextMatching matching : List.of(TextMatching.STRICT, new TextMatching(false, true))) {
            for (String fragment : List.of("a.b", "$1", "\\Q not \\E)", "façade", "—", "", "absent", "a.b line")) {
                var matcher = Pattern.compile(Pattern.quote(fragment)).matcher(ANSWER);
                int[] expected = matcher.find() ? new int[] {matcher.start(), matcher.end()} : null;
                assertThat(matching.span(ANSWER, fragment).orElse(null))
                        .as("%s in %s", fragment, matching)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void a_fragment_with_a_line_break_or_in_another_case_is_matched_loosely() {
        assertThat(TextMatching.STRICT.span("one\r\ntwo", "one\ntwo"))
                .hasValueSatisfying(span -> assertThat(span).containsExactly(0, 8));
        assertThat(new TextMatching(true, false).span("say A.B", "a.b"))
                .hasValueSatisfying(span -> assertThat(span).containsExactly(4, 7));
        assertThat(new TextMatching(false, true).span("x  a \n b", "a b"))
                .hasValueSatisfying(span -> assertThat(span).containsExactly(3, 8));
    }
}
