package dev.assay.cli;

import dev.assay.EnvNames;
import dev.assay.score.Reducer;
import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters that refuse a value outside an option's range while the command line is parsed, so that a bad
 * option is a usage error naming it (exit 2, "Invalid value for option '--concurrency': ...") before anything runs.
 * Default values go through them too.
 */
final class OptionValues {
    /** The shortest admin token {@code serve} accepts: 16 characters, 80+ bits even as lowercase letters. */
    static final int MIN_TOKEN_LENGTH = 16;

    private OptionValues() {}

    /** A count that must be at least 1: concurrency, samples, steps, workers. */
    static final class AtLeastOne implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(integer(value), 1);
        }
    }

    /** A count that may be 0: limits (0 = all), retries, offsets. */
    static final class NotNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(integer(value), 0);
        }
    }

    /** An amount of US dollars, 0 or more: cost limits. */
    static final class Dollars implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double usd = decimal(value);
            if (!(usd >= 0)) {
                throw new TypeConversionException("must be 0 US dollars or more, got '" + value + "'");
            }
            return usd;
        }
    }

    /** A duration in seconds that must be above 0: time limits. */
    static final class PositiveSeconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double seconds = decimal(value);
            if (!(seconds > 0)) {
                throw new TypeConversionException("must be more than 0 seconds, got '" + value + "'");
            }
            return seconds;
        }
    }

    /** A duration in seconds that may be 0: waits. */
    static final class NotNegativeSeconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double seconds = decimal(value);
            if (seconds < 0) {
                throw new TypeConversionException("must be 0 seconds or more, got '" + value + "'");
            }
            return seconds;
        }
    }

    /** A share from 0 to 1: score thresholds. */
    static final class Fraction implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return within(decimal(value), 0, 1, value);
        }
    }

    /** A sampling temperature: 0 to 2, the widest range of the supported APIs. */
    static final class Temperature implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return within(decimal(value), 0, 2, value);
        }
    }

    /** The name of an environment variable: letters, digits and '_', not starting with a digit. */
    static final class EnvName implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!EnvNames.isName(value)) {
                throw new TypeConversionException(
                        "must be the NAME of an environment variable (letters, digits, '_'), got '" + value + "'");
            }
            return value;
        }
    }

    /** How a case's samples make its score: {@code mean}, {@code majority}, {@code max}, {@code pass_at_k}... */
    static final class ReducerName implements ITypeConverter<Reducer> {
        @Override
        public Reducer convert(String value) {
            try {
                return Reducer.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A TCP port to listen on: 0 (any free one) to 65535. */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int port = integer(value);
            if (port < 0 || port > 65_535) {
                throw new TypeConversionException("must be a port from 0 (any free one) to 65535, got '" + value + "'");
            }
            return port;
        }
    }

    /** An http or https URL with a host, as text (the form the model options keep). */
    static final class HttpUrl implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return httpUri(value).toString();
        }
    }

    /** An http or https URL with a host. */
    static final class HttpUri implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            return httpUri(value);
        }
    }

    /** A kind of stored run: {@code capability} or {@code dialog}. */
    static final class RunKind implements ITypeConverter<dev.assay.result.RunKind> {
        @Override
        public dev.assay.result.RunKind convert(String value) {
            if (!value.equals(dev.assay.result.RunKind.CAPABILITY.wireName())
                    && !value.equals(dev.assay.result.RunKind.DIALOG.wireName())) {
                throw new TypeConversionException("expected " + dev.assay.result.RunKind.CAPABILITY + " or "
                        + dev.assay.result.RunKind.DIALOG + ", got '" + value + "'");
            }
            return dev.assay.result.RunKind.parse(value);
        }
    }

    /** An admin token long enough not to be guessed. */
    static final class Token implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return requireTokenLength(value, "");
        }
    }

    /**
     * {@return the token} when it has at least {@link #MIN_TOKEN_LENGTH} characters
     *
     * @param source where it came from, for the message (empty for the option itself)
     */
    static String requireTokenLength(String token, String source) {
        String stripped = token.strip();
        if (stripped.length() < MIN_TOKEN_LENGTH) {
            throw new TypeConversionException(
                    source + "must have at least " + MIN_TOKEN_LENGTH + " characters, got " + stripped.length());
        }
        return stripped;
    }

    private static URI httpUri(String value) {
        URI uri;
        try {
            uri = new URI(value.strip());
        } catch (URISyntaxException e) {
            throw new TypeConversionException("not a URL: '" + value + "' (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new TypeConversionException("must be an http:// or https:// URL, got '" + value + "'");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new TypeConversionException("has no host name: '" + value + "'");
        }
        return uri;
    }

    private static int integer(String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a whole number");
        }
    }

    private static double decimal(String value) {
        try {
            double number = Double.parseDouble(value.strip());
            if (Double.isNaN(number) || Double.isInfinite(number)) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a number");
        }
    }

    private static int atLeast(int number, int minimum) {
        if (number < minimum) {
            throw new TypeConversionException("must be at least " + minimum + ", got " + number);
        }
        return number;
    }

    private static double within(double number, double low, double high, String value) {
        if (number < low || number > high) {
            throw new TypeConversionException("must be from " + low + " to " + high + ", got '" + value + "'");
        }
        return number;
    }
}
