package dev.assay;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * An endpoint URL as it may be recorded (run snapshots, which are stored and shown in reports): without user
 * information and without query or fragment, where users put credentials ({@code user:password@},
 * {@code ?api_key=...}). Shared by the model options and the MCP servers' snapshots.
 */
public final class EndpointUrl {
    /** Up to the last {@code @} of the authority: a password may hold an unencoded {@code @}. */
    private static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@");

    private EndpointUrl() {}

    /**
     * {@return the host and port of a URL ({@code api.openai.com:443}), the label under which its calls are counted: a
     * URL's path and query may carry tokens, the host never does; {@code "unknown"} for what is no URL}
     */
    public static String hostAndPort(String url) {
        try {
            URI uri = new URI(url.strip());
            if (uri.getHost() == null) {
                return "unknown";
            }
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            return uri.getHost() + ":" + port;
        } catch (URISyntaxException | RuntimeException e) {
            return "unknown";
        }
    }

    /** {@return scheme, host, port and path of the URL; null for null} */
    public static String redacted(String url) {
        if (url == null) {
            return null;
        }
        String withoutUserInfo = USER_INFO.matcher(url).replaceFirst("$1");
        int query = withoutUserInfo.indexOf('?');
        int fragment = withoutUserInfo.indexOf('#');
        int end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
        return end < 0 ? withoutUserInfo : withoutUserInfo.substring(0, end);
    }
}
