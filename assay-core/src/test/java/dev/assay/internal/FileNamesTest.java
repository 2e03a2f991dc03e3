package dev.assay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FileNamesTest {
    @Test
    void keepsLettersDigitsDotsUnderscoresAndDashes() {
        assertThat(FileNames.safe("Linux-x86_64.v2")).isEqualTo("Linux-x86_64.v2");
    }

    @Test
    void replacesEveryOtherCharacterOneForOne() {
        assertThat(FileNames.safe("../a b/c:d*é")).isEqualTo(".._a_b_c_d__");
        assertThat(FileNames.safe("Mac OS X-aarch64")).isEqualTo("Mac_OS_X-aarch64");
    }

    @Test
    void cutsLongTextSoThatAFileSystemTakesTheName() {
        String name = FileNames.safe("x".repeat(300));

        assertThat(name).hasSize(FileNames.LONGEST).isEqualTo("x".repeat(FileNames.LONGEST));
    }
}
