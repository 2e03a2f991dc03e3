package dev.assay.internal;

import dev.assay.Problem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Masks a secret's value (an API key, an agent's credential) in text Assay did not write and is about to keep: an
 * endpoint's error body, which some servers fill with the request's own {@code Authorization} header, or an answer.
 * Assay never writes a secret itself; this keeps one that an endpoint echoes out of the database, the reports and the
 * logs. Immutable and thread-safe.
 *
 * <p>An echo need not be exact: an endpoint may cut the key short, glue a character to it, or send it in base64 (a
 * Basic {@code Authorization} header is the base64 of {@code user:key}). So besides every occurrence of the whole
 * secret, every run of at least {@value #FRAGMENT} characters (fewer for a short secret: all of it) that is part of the
 * secret's <em>core</em> is masked, and so is every such run of the core's base64, standard or URL-safe, at any of the
 * three alignments a base64 text can give it. The core is the secret without a provider's prefix ({@code sk-},
 * {@code sk-proj-}, {@code sk-ant-api03-}, {@code ghp_}...), which says nothing about the key and appears in ordinary
 * text.
 *
 * <p>Not a record: a record's {@code toString} would print the secret into whatever log or exception message mentions
 * the mask, and the fragments are worked out once, when the mask is made, not per text.
 */
public final class SecretMask {
    /** No provider issues keys this short; shorter values are placeholders. */
    public static final int SHORTEST_MASKED = 8;

    /** What a masked secret reads as. */
    public static final String MASKED = "***";

    /** A mask that changes nothing. */
    public static final SecretMask NONE = new SecretMask("");

    /**
     * The shortest part of a core that is masked on its own: 72 random bits of a key, or more, so that no ordinary text
     * holds one by chance.
     */
    static final int FRAGMENT = 12;

    /** A provider's prefix: short lowercase words, each followed by a dash or an underscore. */
    private static final Pattern PREFIX = Pattern.compile("^(?:[a-z][a-z0-9]{0,5}[-_])+");

    private final String secret;
    private final Fragments fragments;

    /**
     * @param secret the value to mask; one shorter than {@value #SHORTEST_MASKED} characters (a placeholder such as
     *     {@code x} for a local server) is left alone, since masking it would garble ordinary text
     */
    public SecretMask(String secret) {
        this.secret = secret == null || secret.strip().length() < SHORTEST_MASKED ? "" : secret.strip();
        this.fragments = this.secret.isEmpty() ? null : Fragments.of(this.secret);
    }

    /** {@return whether {@code text} holds the secret, or part of it, or its base64} */
    public boolean appearsIn(String text) {
        return !secret.isEmpty() && text != null && !apply(text).equals(text);
    }

    /** {@return the text with every occurrence of the secret, of a part of its core and of its base64 masked} */
    public String apply(String text) {
        if (secret.isEmpty() || text == null) {
            return text;
        }
        return fragments.mask(text.replace(secret, MASKED));
    }

    /** {@return whether the problem's message or one of its text details holds the secret} */
    public boolean appearsIn(Problem problem) {
        return appearsIn(problem.message())
                || problem.details().values().stream()
                        .anyMatch(value -> value instanceof String text && appearsIn(text));
    }

    /** {@return the problem with the secret masked in its message and its text details; the same one if absent} */
    public Problem apply(Problem problem) {
        return appearsIn(problem) ? problem.withTextRewritten(this::apply) : problem;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SecretMask mask && mask.secret.equals(secret);
    }

    @Override
    public int hashCode() {
        return secret.hashCode();
    }

    /** {@return a description that never holds the secret} */
    @Override
    public String toString() {
        return secret.isEmpty() ? "SecretMask[none]" : "SecretMask[" + MASKED + "]";
    }

    /**
     * The runs of characters that give a secret away: every {@code length}-character part of its core and of the core's
     * base64 forms.
     */
    private record Fragments(int length, Set<String> parts, Set<Long> hashes) {
        static Fragments of(String secret) {
            String core = PREFIX.matcher(secret).replaceFirst("");
            if (core.length() < SHORTEST_MASKED) {
                core = secret;
            }
            int length = Math.min(FRAGMENT, core.length());
            var forms = new ArrayList<String>();
            forms.add(core);
            byte[] bytes = core.getBytes(StandardCharsets.UTF_8);
            for (int alignment = 0; alignment < 3; alignment++) {
                forms.add(base64(bytes, alignment, Base64.getEncoder()));
                forms.add(base64(bytes, alignment, Base64.getUrlEncoder()));
            }
            var parts = new HashSet<String>();
            var hashes = new HashSet<Long>();
            for (String form : forms) {
                for (int start = 0; start + length <= form.length(); start++) {
                    String part = form.substring(start, start + length);
                    parts.add(part);
                    hashes.add(hash(part, 0, length));
                }
            }
            return new Fragments(length, parts, hashes);
        }

        /**
         * {@return the characters of the base64 of {@code bytes} preceded by {@code alignment} other bytes that depend
         * on {@code bytes} alone}: what every base64 text holding them at that alignment holds, whatever surrounds them
         */
        private static String base64(byte[] bytes, int alignment, Base64.Encoder encoder) {
            byte[] padded = new byte[alignment + bytes.length + 2];
            System.arraycopy(bytes, 0, padded, alignment, bytes.length);
            String encoded = encoder.encodeToString(padded);
            int end = alignment + bytes.length;
            var kept = new StringBuilder();
            for (int index = 0; index < encoded.length(); index++) {
                // Of a group of three bytes, the four characters read bits of bytes 0, 0-1, 1-2 and 2.
                int group = index / 4 * 3;
                int position = index % 4;
                int first = group + (position == 0 ? 0 : position - 1);
                int last = group + (position == 3 ? 2 : position);
                if (first >= alignment && last < end) {
                    kept.append(encoded.charAt(index));
                }
            }
            return kept.toString();
        }

        /** A polynomial hash of {@code text[start, start + length)}, rolled by {@link #mask}. */
        private static long hash(CharSequence text, int start, int length) {
            long hash = 0;
            for (int index = start; index < start + length; index++) {
                hash = hash * 31 + text.charAt(index);
            }
            return hash;
        }

        /** {@return the text with every run of overlapping or touching fragments replaced by one {@link #MASKED}} */
        String mask(String text) {
            if (text.length() < length) {
                return text;
            }
            long power = 1;
            for (int index = 1; index < length; index++) {
                power *= 31;
            }
            var spans = new ArrayList<int[]>();
            long hash = hash(text, 0, length);
            for (int start = 0; start + length <= text.length(); start++) {
                if (start > 0) {
                    hash = (hash - text.charAt(start - 1) * power) * 31 + text.charAt(start + length - 1);
                }
                if (hashes.contains(hash) && parts.contains(text.substring(start, start + length))) {
                    int end = start + length;
                    if (!spans.isEmpty() && spans.getLast()[1] >= start) {
                        spans.getLast()[1] = end;
                    } else {
                        spans.add(new int[] {start, end});
                    }
                }
            }
            if (spans.isEmpty()) {
                return text;
            }
            var masked = new StringBuilder(text.length());
            int copied = 0;
            for (int[] span : spans) {
                masked.append(text, copied, span[0]).append(MASKED);
                copied = span[1];
            }
            return masked.append(text, copied, text.length()).toString();
        }
    }
}
