package dev.assay;

import java.util.regex.Pattern;

/**
 * What may name an environment variable wherever a user names one (an API key's, a credential's): letters, digits and
 * {@code _}, not starting with a digit. Stateless.
 */
public final class EnvNames {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EnvNames() {}

    /** {@return whether {@code name} can name an environment variable} */
    public static boolean isName(String name) {
        return NAME.matcher(name).matches();
    }
}
