package dev.assay.code.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.Sandbox;
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
public sealed interface LanguageRunner permits PythonRunner, JavaScriptRunner, JavaRunner {
    /** {@return the files, command and limits that run {@code code} against the configured cases} */
    HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits);

    /** {@return the runner of {@code language}, its programs named as {@code sandbox} finds them} */
    static Optional<LanguageRunner> forLanguage(String language, Sandbox sandbox) {
        return switch (language) {
            case "python" -> Optional.of(new PythonRunner(PythonRunner.interpreter(sandbox)));
            case "javascript" -> Optional.of(new JavaScriptRunner(JavaScriptRunner.node(sandbox)));
            // The harness runs on Assay's own JDK and Jackson jars, which only this machine has.
            case "java" -> sandbox.hostSystem() ? Optional.of(new JavaRunner()) : Optional.empty();
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
