package dev.assay.dialog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import org.junit.jupiter.api.Test;

class PythonJsonTest {

    @Test
    void floats_are_written_as_python_repr() {
        assertThat(PythonJson.repr(0.1)).isEqualTo("0.1");
        assertThat(PythonJson.repr(5.0)).isEqualTo("5.0");
        assertThat(PythonJson.repr(2.0 / 3)).isEqualTo("0.6666666666666666");
        assertThat(PythonJson.repr(1e-5)).isEqualTo("1e-05");
        assertThat(PythonJson.repr(0.00012)).isEqualTo("0.00012");
        assertThat(PythonJson.repr(12345678.0)).isEqualTo("12345678.0");
        assertThat(PythonJson.repr(1e16)).isEqualTo("1e+16");
        assertThat(PythonJson.repr(-2.5e-7)).isEqualTo("-2.5e-07");
    }

    @Test
    void a_line_uses_python_separators_and_leaves_non_ascii_unescaped() {
        assertThat(PythonJson.line(Json.parse("{\"a\":[1,2.5,null],\"b\":\"稳健\\n\\u0001\"}")))
                .isEqualTo("{\"a\": [1, 2.5, null], \"b\": \"稳健\\n\\u0001\"}");
    }

    @Test
    void indented_output_writes_empty_containers_compactly() {
        assertThat(PythonJson.indented(Json.parse("{\"a\":{},\"b\":[]}"))).isEqualTo("{\n  \"a\": {},\n  \"b\": []\n}");
    }
}
