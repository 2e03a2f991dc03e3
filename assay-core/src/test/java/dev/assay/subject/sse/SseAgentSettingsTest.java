package dev.assay.subject.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class SseAgentSettingsTest {
    @Test
    void credentials_written_into_the_agent_url_never_reach_the_snapshot() {
        var settings = SseAgentSettings.of(URI.create("https://bob:s3cret@agent.example/wunder?api_key=k-123"));
        String described = settings.describe().toString();
        assertThat(described)
                .contains("agent.example/wunder")
                .doesNotContain("s3cret")
                .doesNotContain("k-123")
                .doesNotContain("bob");
    }
}
