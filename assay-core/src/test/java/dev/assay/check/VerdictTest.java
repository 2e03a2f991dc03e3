package dev.assay.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {
    @Test
    void a_verdict_built_field_by_field_is_the_node_jackson_converts_it_to() {
        // Node equality compares types too: a field added to the record, renamed or of another type fails here.
        List<Verdict> verdicts = List.of(
                Verdict.passed(Json.parse("{\"expected\":\"42\",\"actual\":\"42\",\"spans\":[[0,2]]}")),
                Verdict.failed("contains.missing", "\"x\" is not in the answer", Json.parse("{\"missing\":[\"x\"]}")),
                Verdict.partial(0.5, "tool_args.value_error", "one argument of two", Json.parse("[1,2.5,null,true]")),
                Verdict.skipped("check.unavailable", "no sandbox"),
                Verdict.error(Problem.of("regex.too_complex", "the pattern overflowed the stack")),
                new Verdict(Verdict.Status.PASSED, 1.0, null, null, null));

        for (Verdict verdict : verdicts) {
            assertThat(verdict.toJson()).isEqualTo(Json.tree(verdict));
        }
    }
}
