package dev.assay;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A failure described as data: a machine-readable dotted {@code type} (for example {@code target.timeout},
 * {@code tool_args.missing_required}, {@code workspace.escape}), a human message, and optional details.
 *
 * @param type dotted error code from the documented list in the README; never blank
 * @param message one sentence a user can act on; never null
 * @param details extra machine-readable facts (file, line, field, retry count...); empty when there are none
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String message, Map<String, Object> details) {
    public Problem {
        Objects.requireNonNull(type, "type");
        message = message == null ? "" : message;
        details = details == null ? Map.of() : unmodifiableCopy(details);
    }

    public static Problem of(String type, String message) {
        return new Problem(type, message, Map.of());
    }

    public Problem withDetail(String key, Object value) {
        var copy = new LinkedHashMap<String, Object>(details);
        copy.put(key, value);
        return new Problem(type, message, copy);
    }

    /**
     * {@return the problem with {@code rewrite} applied to its message and to each of its details that is text}: for
     * what must not be shown as it is (a secret an endpoint echoed, a host path)
     */
    public Problem withTextRewritten(UnaryOperator<String> rewrite) {
        var copy = new LinkedHashMap<String, Object>();
        details.forEach((key, value) -> copy.put(key, value instanceof String text ? rewrite.apply(text) : value));
        return new Problem(type, rewrite.apply(message), copy);
    }

    private static Map<String, Object> unmodifiableCopy(Map<String, Object> details) {
        // LinkedHashMap keeps the order callers chose (file, line, field) and tolerates null values.
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
