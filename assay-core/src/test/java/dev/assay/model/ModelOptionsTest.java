package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;

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
}
