package dev.assay.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Check;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reference server's own case files (../shared/data/wunder, read-only) give checker objects tagged by {@code type};
 * with the tag removed, the rest must be a valid {@code expected} for the checker of that name.
 */
class ReferenceCaseFilesTest {

    private static Path sharedData() {
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && dir != null; i++, dir = dir.getParent()) {
            Path candidate = dir.resolveSibling("shared").resolve("data");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
            candidate = dir.resolve("shared").resolve("data");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static List<JsonNode> referenceCheckers() throws IOException {
        Path data = sharedData();
        assumeTrue(
                data != null && Files.isDirectory(data.resolve("wunder")),
                "shared/data/wunder not found next to the repository; skipping the reference case files");
        var checkers = new ArrayList<JsonNode>();
        try (Stream<Path> files = Files.walk(data.resolve("wunder"))) {
            for (Path file : files.filter(path ->
                            path.toString().endsWith(".json") && path.toString().contains("evaluation/cases"))
                    .toList()) {
                Json.parse(Files.readString(file))
                        .path("cases")
                        .forEach(evalCase -> checkers.add(evalCase.get("checker")));
            }
        }
        return checkers;
    }

    @Test
    void every_reference_checker_object_builds_a_checker() throws IOException {
        var registry = CheckerRegistry.builtins();
        List<JsonNode> checkers = referenceCheckers();

        assertThat(checkers).isNotEmpty();
        for (JsonNode checker : checkers) {
            ObjectNode expected = ((ObjectNode) checker.deepCopy());
            String type = expected.remove("type").asText();
            assertThatCode(() -> registry.create(Check.of(type, expected)))
                    .as(checker.toString())
                    .doesNotThrowAnyException();
        }
    }
}
