package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import org.junit.jupiter.api.Test;

class ModelOptionsTest {
    private static String recordedBaseUrl(String baseUrl) {
        return new ModelOptions("openai:m", baseUrl, null, false, null, null)
                .describe()
                .path("base_url")
                .asText();
    }

    @Test
    void credentials_written_into_the_base_url_never_reach_the_snapshot() {
        assertThat(recordedBaseUrl("https://user:s3c@ret@proxy.example:8443/v1?api_key=sk-123#top"))
                .isEqualTo("https://proxy.example:8443/v1");
    }

    @Test
    void a_base_url_without_credentials_is_recorded_as_written() {
        assertThat(recordedBaseUrl("http://127.0.0.1:8000/v1")).isEqualTo("http://127.0.0.1:8000/v1");
    }

    @Test
    void a_key_variable_that_is_no_variable_name_is_refused_naming_the_field() {
        assertThatThrownBy(() -> new ModelOptions("openai:m", null, "A B", false, null, null))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("config.invalid_api_key_env");
                    assertThat(e.problem().details()).containsEntry("field", "api_key_env");
                });
    }
}
