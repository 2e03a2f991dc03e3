package dev.assay.target;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ModelOptionsTest {
    private static String recordedBaseUrl(String baseUrl) {
        return new ModelOptions("openai:m", baseUrl, null, false, null, null).describe().path("base_url").asText();
    }

    @Test
    void credentials_written_into_the_base_url_never_reach_the_snapshot() {
        String recorded = recordedBaseUrl("https://user:s3cret@proxy.example/v1?api-version=2024-02-01&api_key=sk-123");

        assertThat(recorded).isEqualTo("https://***@proxy.example/v1?api-version=2024-02-01&api_key=***");
    }

    @Test
    void credential_like_query_parameters_are_masked_whatever_their_spelling() {
        assertThat(recordedBaseUrl("http://h/v1?key=a&access_token=b&X-Goog-Api-Key=c&sig=d&monkey=e#top"))
                .isEqualTo("http://h/v1?key=***&access_token=***&X-Goog-Api-Key=***&sig=***&monkey=e#top");
    }

    @Test
    void a_base_url_without_credentials_is_recorded_as_written() {
        assertThat(recordedBaseUrl("http://127.0.0.1:8000/v1")).isEqualTo("http://127.0.0.1:8000/v1");
    }
}
