package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.cases.Case;
import dev.assay.testing.HostileYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuestionFilesTest {
    @TempDir
    Path dir;

    @Test
    void yaml_alias_reads_as_the_anchored_value() throws Exception {
        Path file = Files.writeString(dir.resolve("questions.yaml"), """
                shared: &statement Return the sum of a and b.
                cases:
                  - id: add
                    prompt: *statement
                    entry_point: add
                """);

        Case question = QuestionFiles.read(file).getFirst();

        assertThat(question.prompt()).isEqualTo("Return the sum of a and b.");
    }

    @Test
    void yaml_billion_laughs_is_refused_naming_the_file_and_line() throws Exception {
        Path file = Files.writeString(dir.resolve("laughs.yaml"), HostileYaml.BILLION_LAUGHS);

        assertThatThrownBy(() -> QuestionFiles.read(file))
                .isInstanceOf(AssayException.class)
                .hasMessageContaining("laughs.yaml")
                .hasMessageContaining("billion laughs")
                .hasMessageMatching("(?s).*line: (\\d|10),.*");
    }
}
