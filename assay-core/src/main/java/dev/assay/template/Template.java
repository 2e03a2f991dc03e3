package dev.assay.template;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateError.ErrorType;
import com.hubspot.jinjava.lib.filter.Filter;
import dev.assay.AssayException;
import dev.assay.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders a Nunjucks-style template ({@code {{var}}}, filters, {@code {% if %}}, {@code {% for %}}) with variables.
 * Thread-safe: one Jinjava engine serves every caller, and each render has its own interpreter.
 *
 * <p>Where Jinjava and Nunjucks differ, Nunjucks wins, because the templates come from promptfoo configs and are
 * checked against promptfoo's output: an unknown variable renders as nothing, nothing is HTML-escaped, a variable's
 * value is inserted as written (never rendered again as a template, which would let a dataset row run template code),
 * and Nunjucks's {@code dump} filter (JSON text, with an optional indent) exists beside Jinjava's own filters.
 */
public final class Template {
    /** The problem type of a template that does not parse or render. */
    public static final String INVALID = "template.invalid";

    /** Bounds what one render may produce, so a loop in a config cannot fill the memory. */
    private static final long MAX_OUTPUT_CHARS = 16L * 1024 * 1024;

    private static final Jinjava ENGINE = engine();

    private Template() {}

    /**
     * {@return {@code source} rendered with {@code vars}} Values may be strings, numbers, booleans, lists, maps or
     * Jackson trees (read as the plain values they hold).
     *
     * @throws AssayException {@value #INVALID} naming the line and the reason when the template has a syntax error or
     *     fails to render
     */
    public static String render(String source, Map<String, ?> vars) {
        if (source.indexOf('{') < 0) {
            return source; // no tag, no expression: the common case of a plain prompt costs nothing
        }
        Map<String, Object> bindings = new LinkedHashMap<>();
        vars.forEach((name, value) -> bindings.put(name, plain(value)));
        RenderResult result = ENGINE.renderForResult(source, bindings);
        String fatal = result.getErrors().stream()
                .filter(error -> error.getSeverity() == ErrorType.FATAL)
                .map(Template::describe)
                .collect(Collectors.joining("; "));
        if (!fatal.isEmpty()) {
            throw AssayException.of(INVALID, "template: " + fatal);
        }
        return result.getOutput();
    }

    private static String describe(TemplateError error) {
        return error.getLineno() > 0 ? "line " + error.getLineno() + ": " + error.getMessage() : error.getMessage();
    }

    private static Object plain(Object value) {
        if (value instanceof JsonNode node) {
            return Json.MAPPER.convertValue(node, Object.class);
        }
        return value;
    }

    private static Jinjava engine() {
        JinjavaConfig config = JinjavaConfig.newBuilder()
                .withFailOnUnknownTokens(false)
                .withNestedInterpretationEnabled(false)
                .withMaxOutputSize(MAX_OUTPUT_CHARS)
                .build();
        Jinjava jinjava = new Jinjava(config);
        jinjava.getGlobalContext().registerFilter(new DumpFilter(Json.MAPPER));
        return jinjava;
    }

    /** Nunjucks's {@code dump}: the value as JSON, as {@code JSON.stringify(value, null, indent)} writes it. */
    private record DumpFilter(ObjectMapper mapper) implements Filter {
        @Override
        public String getName() {
            return "dump";
        }

        @Override
        public Object filter(Object value, JinjavaInterpreter interpreter, String... args) {
            try {
                int indent = args.length > 0 && !args[0].isBlank() ? Integer.parseInt(args[0].trim()) : 0;
                if (indent <= 0) {
                    return mapper.writeValueAsString(value);
                }
                DefaultIndenter indenter = new DefaultIndenter(" ".repeat(indent), "\n");
                DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                        .withSeparators(Separators.createDefaultInstance()
                                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                                .withObjectEmptySeparator("")
                                .withArrayEmptySeparator(""));
                printer.indentArraysWith(indenter);
                printer.indentObjectsWith(indenter);
                return mapper.writer(printer).writeValueAsString(value);
            } catch (JsonProcessingException | NumberFormatException e) {
                throw new IllegalArgumentException("dump: " + e.getMessage(), e);
            }
        }
    }
}
