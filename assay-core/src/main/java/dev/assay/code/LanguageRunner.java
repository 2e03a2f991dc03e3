package dev.assay.code;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.SandboxLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Turns a program and its cases into a harness execution for one language. The harness configuration holds
 * {@code entry_point}, {@code signature_source}, {@code test_code}, {@code case_timeout} (seconds) and {@code cases}
 * (each {@code {input, design}}); expected values never enter the sandbox, nor does a reference solution enter the
 * process of the program under test.
 */
sealed interface LanguageRunner permits PythonRunner, JavaScriptRunner, JavaRunner {
    /** {@return the files, command and limits that run {@code code} against the configured cases} */
    HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits);

    static Optional<LanguageRunner> forLanguage(String language) {
        return switch (language) {
            case "python" -> Optional.of(new PythonRunner());
            case "javascript" -> Optional.of(new JavaScriptRunner());
            case "java" -> Optional.of(new JavaRunner());
            default -> Optional.empty();
        };
    }

    static String resource(String name) {
        try (InputStream in = LanguageRunner.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing harness resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
