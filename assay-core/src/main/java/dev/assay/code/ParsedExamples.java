package dev.assay.code;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;

/**
 * The examples of one question and how many of them parsed.
 *
 * @param examples every example found, in order, parsed or not; empty when the description has none
 */
public record ParsedExamples(List<Example> examples) {
    /** Whether all, some or none of a question's examples parsed. */
    public enum Status {
        OK,
        PARTIAL,
        NONE;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ParsedExamples {
        examples = List.copyOf(examples);
    }

    /** {@return the examples that can be used as tests} */
    public List<Example> usable() {
        return examples.stream()
                .filter(example -> example.status() == Example.Status.OK)
                .toList();
    }

    /** {@return ok when every example parsed (and there is at least one), none when none did, else partial} */
    public Status status() {
        int ok = usable().size();
        return ok == 0 ? Status.NONE : ok == examples.size() ? Status.OK : Status.PARTIAL;
    }
}
