package dev.assay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretMaskTest {
    private static final SecretMask MASK = new SecretMask("sk-live-0123456789");

    @Test
    void every_occurrence_is_masked_and_other_text_is_kept() {
        assertThat(MASK.apply("Bearer sk-live-0123456789 and again sk-live-0123456789."))
                .isEqualTo("Bearer *** and again ***.");
        assertThat(MASK.apply("nothing here")).isEqualTo("nothing here");
        assertThat(MASK.apply((String) null)).isNull();
    }

    @Test
    void a_problem_is_masked_in_its_message_and_text_details_and_kept_as_it_is_without_the_secret() {
        Problem echoed = Problem.of("target.auth_failed", "the API answered HTTP 401: key sk-live-0123456789")
                .withDetail("status", 401)
                .withDetail("body", "{\"key\": \"sk-live-0123456789\"}");

        Problem masked = MASK.apply(echoed);

        assertThat(masked.type()).isEqualTo("target.auth_failed");
        assertThat(masked.message()).isEqualTo("the API answered HTTP 401: key ***");
        assertThat(masked.details()).containsEntry("status", 401).containsEntry("body", "{\"key\": \"***\"}");
        Problem clean = Problem.of("target.http_error", "the API answered HTTP 500");
        assertThat(MASK.apply(clean)).isSameAs(clean);
    }

    @Test
    void placeholders_shorter_than_a_real_key_are_left_alone() {
        var placeholder = new SecretMask("x");

        assertThat(placeholder).isEqualTo(SecretMask.NONE);
        assertThat(placeholder.apply("x marks the spot")).isEqualTo("x marks the spot");
        assertThat(new SecretMask(null)).isEqualTo(SecretMask.NONE);
    }
}
