package dev.assay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plug-ins are found through service files; one that names a class which cannot be used is a problem naming both. */
class PluginsTest {
    /** A plug-in kind of this test's own. */
    public interface Thing {
        String name();
    }

    @TempDir
    Path folder;

    @Test
    void a_service_file_naming_a_missing_class_is_plugin_invalid_naming_the_file_and_the_class() throws Exception {
        Path file = folder.resolve("META-INF/services/" + Thing.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# made by hand\n  Evil  # a typo\n");

        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        AssayException thrown;
        try (var loader = new URLClassLoader(new URL[] {folder.toUri().toURL()}, before)) {
            thread.setContextClassLoader(loader);
            thrown = catchThrowableOfType(
                    AssayException.class, () -> Plugins.load(Thing.class, "thing", Thing::name, List.of()));
        } finally {
            thread.setContextClassLoader(before);
        }

        assertThat(thrown.problem().type()).isEqualTo("plugin.invalid");
        assertThat(thrown.problem().details().get("class")).isEqualTo("Evil");
        assertThat(thrown.problem().details().get("file"))
                .isEqualTo(file.toUri().toURL().toString());
        assertThat(thrown.problem().message())
                .contains(file.toString())
                .contains("'Evil'")
                .contains("not found");
    }
}
