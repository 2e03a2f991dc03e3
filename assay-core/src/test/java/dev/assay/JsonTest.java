package dev.assay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void utf8_bytes_read_as_their_text_does() {
        String text = "{\"reason\": \"缺少 token-7\", \"scores\": [1, 0.5]}";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

        assertThat(Json.parse(utf8)).isEqualTo(Json.parse(text));
        assertThat(Json.read("[\"a\",\"é\"]".getBytes(StandardCharsets.UTF_8), new TypeReference<List<String>>() {}))
                .containsExactly("a", "é");
    }

    @Test
    void bytes_that_are_not_json_fail_as_text_does() {
        for (Runnable reading : List.<Runnable>of(
                () -> Json.parse("{\"open\": ".getBytes(StandardCharsets.UTF_8)), () -> Json.parse("{\"open\": "))) {
            assertThatThrownBy(reading::run)
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("json.invalid"));
        }
    }
}
