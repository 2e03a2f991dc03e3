package dev.assay;

import dev.assay.internal.Spelling;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Plug-ins of one type by name: the one way Assay finds checkers, model kinds, systems under test, tool providers,
 * sandboxes, metrics and reporters. Assay's built-ins come first, then every implementation {@link ServiceLoader} finds
 * on the class path ({@code META-INF/services/<type>}), in class-path order; a later one replaces an earlier one of the
 * same name. A name nobody registered is the problem {@code plugin.unknown}, listing the known names; a service file
 * that names a class which cannot be used is {@code plugin.invalid}, naming the file and the class. Thread-safe
 * (immutable).
 *
 * @param <T> the plug-in type
 */
public final class Plugins<T> {
    private final String kind;
    private final Function<? super T, String> nameOf;
    private final Map<String, T> byName;

    private Plugins(String kind, Function<? super T, String> nameOf, Map<String, T> byName) {
        this.kind = kind;
        this.nameOf = nameOf;
        this.byName = Collections.unmodifiableMap(byName);
    }

    /**
     * {@return the built-ins and the plug-ins of {@code type} on the thread's context class path}
     *
     * @param type the service interface
     * @param kind what one of them is called in messages ({@code checker}, {@code model kind})
     * @param nameOf the name users type for one
     * @param builtins Assay's own, registered first
     */
    public static <T> Plugins<T> load(
            Class<T> type, String kind, Function<? super T, String> nameOf, List<? extends T> builtins) {
        var all = new ArrayList<T>(builtins);
        try {
            ServiceLoader.load(type).forEach(all::add);
        } catch (ServiceConfigurationError broken) {
            throw new AssayException(invalid(type, broken));
        }
        return of(kind, nameOf, all);
    }

    /**
     * {@return the problem {@code plugin.invalid} of a service file {@link ServiceLoader} could not follow}: it names
     * the file and the class it lists that failed (a class not on the class path, not a {@code type}, or one that could
     * not be made), as {@code file} and {@code class} details
     */
    static Problem invalid(Class<?> type, ServiceConfigurationError broken) {
        String message = broken.getMessage() == null ? broken.toString() : broken.getMessage();
        String service = "META-INF/services/" + type.getName();
        try {
            for (URL file : Collections.list(
                    Thread.currentThread().getContextClassLoader().getResources(service))) {
                for (String listed : listedClasses(file)) {
                    if (Pattern.compile("(^|[\\s:])" + Pattern.quote(listed) + "($|[\\s:])")
                            .matcher(message)
                            .find()) {
                        return Problem.of(
                                        "plugin.invalid",
                                        "the plug-in service file " + file + " names class '" + listed
                                                + "', which cannot be used as a " + type.getSimpleName() + ": "
                                                + reason(message, type))
                                .withDetail("file", file.toString())
                                .withDetail("class", listed);
                    }
                }
            }
        } catch (IOException unreadable) {
            // The problem below says what ServiceLoader said, without the file.
        }
        return Problem.of("plugin.invalid", "a plug-in service file " + service + " cannot be used: " + message)
                .withDetail("file", service);
    }

    /** {@return ServiceLoader's message without the service's name it begins with} */
    private static String reason(String message, Class<?> type) {
        String prefix = type.getName() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** {@return the class names a service file lists: one a line, {@code #} starting a comment} */
    private static List<String> listedClasses(URL file) throws IOException {
        var names = new ArrayList<String>();
        try (InputStream in = file.openStream()) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
                int comment = line.indexOf('#');
                String name = (comment < 0 ? line : line.substring(0, comment)).strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** {@return exactly {@code plugins}, without looking on the class path} */
    public static <T> Plugins<T> of(String kind, Function<? super T, String> nameOf, List<? extends T> plugins) {
        var byName = new LinkedHashMap<String, T>();
        plugins.forEach(plugin -> byName.put(nameOf.apply(plugin), plugin));
        return new Plugins<>(kind, nameOf, byName);
    }

    /** {@return these plug-ins and {@code plugin}, which replaces one of the same name} */
    public Plugins<T> with(T plugin) {
        var byName = new LinkedHashMap<>(this.byName);
        byName.put(nameOf.apply(plugin), plugin);
        return new Plugins<>(kind, nameOf, byName);
    }

    /** {@return the plug-in of this name, if one is registered} */
    public Optional<T> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * {@return the plug-in of this name}
     *
     * @param field the field of the user's input that named it, for the problem's {@code field} detail; null for none
     * @throws AssayException {@code plugin.unknown} listing the known names, and the one meant when the name is a near
     *     miss ({@link Spelling})
     */
    public T get(String name, String field) {
        T plugin = byName.get(name);
        if (plugin == null) {
            String guess = Spelling.closest(name, byName.keySet())
                    .map(known -> "; did you mean '" + known + "'?")
                    .orElse("");
            Problem unknown = Problem.of(
                    "plugin.unknown",
                    "unknown " + kind + " '" + name + "'" + guess + "; known: " + String.join(", ", names()));
            throw new AssayException(field == null ? unknown : unknown.withDetail("field", field));
        }
        return plugin;
    }

    /** {@return the registered names, in registration order} */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** {@return the registered plug-ins, in registration order} */
    public Collection<T> all() {
        return byName.values();
    }
}
