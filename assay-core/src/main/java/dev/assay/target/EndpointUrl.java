package dev.assay.target;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An endpoint URL as it may be recorded (run snapshots, target names, messages): credentials a user wrote into it,
 * as {@code user:password@} or as a query parameter such as {@code ?api_key=...}, are masked, because the record is
 * stored in the database and shown in reports. Everything else is kept as written.
 */
public final class EndpointUrl {
    private static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@]*@");
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "(?i)(?:^|[-_.])(key|apikey|token|secret|password|passwd|pwd|auth|authorization|sig|signature)(?:$|[-_.])");

    private EndpointUrl() {
    }

    /** {@return the URL with user-info and the values of credential-like query parameters replaced by ***} */
    public static String redacted(String url) {
        if (url == null) {
            return null;
        }
        String masked = USER_INFO.matcher(url).replaceFirst("$1***@");
        int query = masked.indexOf('?');
        if (query < 0) {
            return masked;
        }
        int fragment = masked.indexOf('#', query);
        String end = fragment < 0 ? "" : masked.substring(fragment);
        String[] parameters = masked.substring(query + 1, fragment < 0 ? masked.length() : fragment).split("&", -1);
        for (int i = 0; i < parameters.length; i++) {
            String[] pair = parameters[i].split("=", 2);
            if (pair.length == 2 && SECRET_PARAMETER.matcher(pair[0].toLowerCase(Locale.ROOT)).find()) {
                parameters[i] = pair[0] + "=***";
            }
        }
        return masked.substring(0, query + 1) + String.join("&", parameters) + end;
    }
}
