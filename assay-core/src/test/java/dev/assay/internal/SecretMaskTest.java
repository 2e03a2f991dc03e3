package dev.assay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Problem;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
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

    private static final String KEY = "sk-proj-Qm7xT2vLk9WcR4nB8yHd3ZsF6gJp1aEu";

    private static String base64(String text, Base64.Encoder encoder) {
        return encoder.encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void a_key_echoed_with_a_character_more_or_cut_short_is_masked_whole() {
        var mask = new SecretMask(KEY);

        assertThat(mask.apply("key X" + KEY.substring(8) + "Y here")).isEqualTo("key X***Y here");
        assertThat(mask.apply("key " + KEY.substring(0, 30) + "... here")).isEqualTo("key sk-proj-***... here");
        assertThat(mask.apply("key " + KEY.substring(8, 8 + SecretMask.FRAGMENT) + " here"))
                .isEqualTo("key *** here");
        assertThat(mask.appearsIn("key " + KEY.substring(8, 8 + SecretMask.FRAGMENT - 1) + " here"))
                .isFalse();
    }

    @Test
    void a_key_echoed_in_base64_standard_or_url_safe_alone_or_as_basic_credentials_is_masked() {
        var mask = new SecretMask(KEY);
        for (Base64.Encoder encoder : java.util.List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
            for (String before : java.util.List.of("", ":", "u:", "us:", "user:", "api:")) {
                for (String after : java.util.List.of("", "\n", "X")) {
                    String echo = base64(before + KEY + after, encoder);

                    String masked = mask.apply("Authorization: Basic " + echo + " was refused");

                    assertThat(masked)
                            .as(echo)
                            .startsWith("Authorization: Basic ")
                            .endsWith(" was refused");
                    // What is left of the echo is the base64 of what is not the key's core, and the characters that
                    // mix its bits with the core's: never a part of the key.
                    int notCore = (before + "sk-proj-" + after).length() * 4 / 3 + 8;
                    assertThat(masked.length() - "Authorization: Basic  was refused".length())
                            .as(echo)
                            .isLessThan(notCore + SecretMask.MASKED.length());
                }
            }
        }
        assertThat(mask.appearsIn(base64("an ordinary answer of some length", Base64.getEncoder())))
                .isFalse();
    }

    @Test
    void the_mask_never_prints_its_secret() {
        assertThat(MASK.toString()).doesNotContain("0123456789").doesNotContain("live");
        assertThat(String.valueOf(List.of(MASK))).doesNotContain("0123456789");
    }
}
