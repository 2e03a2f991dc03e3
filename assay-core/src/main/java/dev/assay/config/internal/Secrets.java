package dev.assay.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Refuses secrets written into the configuration: {@code assay.yaml} is meant to be committed, so keys and tokens are
 * named by environment variable and read at run time. Two rules: a field whose name says it holds a secret
 * ({@code api_key}, {@code token}, {@code password}...) may not hold a literal value, and no string anywhere may look
 * like a well-known credential (OpenAI/Anthropic keys, GitHub and Slack tokens, AWS key ids, JWTs, bearer tokens,
 * passwords in URLs).
 */
public final class Secrets {
    static final String TYPE = "config.secret";

    private static final Set<String> SECRET_FIELDS = Set.of(
            "api_key",
            "apikey",
            "key",
            "token",
            "access_token",
            "secret",
            "client_secret",
            "password",
            "passwd",
            "authorization",
            "auth",
            "bearer");

    private static final List<Pattern> SECRET_VALUES = List.of(
            Pattern.compile("\\bsk-[A-Za-z0-9_-]{16,}"),
            Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{20,}"),
            Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{20,}"),
            Pattern.compile("\\bxox[abprs]-[A-Za-z0-9-]{10,}"),
            Pattern.compile("\\bAKIA[0-9A-Z]{16}\\b"),
            Pattern.compile("\\bAIza[0-9A-Za-z_-]{30,}"),
            Pattern.compile("\\beyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\."),
            Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/=-]{16,}"),
            Pattern.compile("://[^/\\s:@]+:[^/\\s@]+@"),
            Pattern.compile("(?i)[?&](api_?key|token|access_token|secret|password)=[^&\\s]{6,}"));

    private Secrets() {}

    public static void scan(ConfigNode node) {
        scan(node, false);
    }

    /** Under {@code headers:} keys are header names mapped to variable names, so only the value rule applies. */
    private static void scan(ConfigNode node, boolean headerNames) {
        JsonNode json = node.json();
        if (json.isObject()) {
            json.fieldNames().forEachRemaining(name -> {
                ConfigNode child = node.get(name);
                if (!headerNames
                        && SECRET_FIELDS.contains(ConfigNode.lower(name))
                        && child.json().isValueNode()
                        && !child.json().isNull()) {
                    throw child.invalid(
                            TYPE,
                            "holds a literal secret; put it in an environment variable and name "
                                    + "the variable instead (e.g. " + name + "_env)");
                }
                scan(child, !headerNames && name.equals("headers"));
            });
        } else if (json.isArray()) {
            for (int i = 0; i < json.size(); i++) {
                scan(node.element(i), false);
            }
        } else if (json.isTextual()) {
            for (Pattern pattern : SECRET_VALUES) {
                if (pattern.matcher(json.asText()).find()) {
                    throw node.invalid(
                            TYPE,
                            "looks like a secret ('" + ConfigNode.abbreviate(json.asText())
                                    + "'); put it in an environment variable and name the variable instead");
                }
            }
        }
    }
}
