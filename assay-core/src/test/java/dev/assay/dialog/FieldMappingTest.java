package dev.assay.dialog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.run.FieldMapping;
import org.junit.jupiter.api.Test;

class FieldMappingTest {

    @Test
    void the_defaults_read_the_trace_field_names() {
        var reply = new AgentService.Reply("hi", Json.parse("{\"recall\":{\"items\":[]},\"profile_snapshot\":{}}"));

        TurnResponse response = AgentServiceSubject.turnResponse(FieldMapping.defaults(), reply);

        assertThat(response.recall().has("items")).isTrue();
        assertThat(response.profileSnapshot().isObject()).isTrue();
        assertThat(response.compliance().isNull()).isTrue();
        assertThat(response.tools().isEmpty()).isTrue();
    }

    @Test
    void an_override_points_into_nested_fields() {
        var reply = new AgentService.Reply("hi", Json.parse("{\"guard\":{\"result\":{\"violations\":[]}}}"));

        TurnResponse response = AgentServiceSubject.turnResponse(FieldMapping.parse("compliance=/guard/result"), reply);

        assertThat(response.compliance().has("violations")).isTrue();
    }

    @Test
    void an_unknown_field_is_rejected() {
        assertThatThrownBy(() -> FieldMapping.parse("memory=/x"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("dialog.invalid_field_mapping"));
    }

    @Test
    void an_invalid_pointer_is_rejected() {
        assertThatThrownBy(() -> FieldMapping.parse("recall=no-slash"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("dialog.invalid_field_mapping"));
    }
}
