package dev.assay;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.assay.internal.AliasResolvingYamlParser;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/**
 * The one YAML reading of Assay (case files, {@code assay.yaml}, code question files). Jackson's own YAML parser hands
 * an alias ({@code *name}) over as the string {@code "name"}; every parser made here resolves aliases to their anchor's
 * value instead, within a bound on expansion (see {@link AliasResolvingYamlParser}). Thread-safe.
 */
public final class Yaml {
    /** A mapper whose parsers, also those made through {@code MAPPER.getFactory()}, resolve aliases. */
    public static final ObjectMapper MAPPER = new ObjectMapper(new AliasResolvingFactory());

    private Yaml() {}

    /** Jackson's YAML factory with every parser it makes replaced by {@link AliasResolvingYamlParser}. */
    private static final class AliasResolvingFactory extends YAMLFactory {
        private static final long serialVersionUID = 1L;

        AliasResolvingFactory() {}

        private AliasResolvingFactory(AliasResolvingFactory source, ObjectCodec codec) {
            super(source, codec);
        }

        @Override
        public AliasResolvingFactory copy() {
            return new AliasResolvingFactory(this, null);
        }

        @Override
        protected YAMLParser _createParser(InputStream input, IOContext context) throws IOException {
            return parser(context, _createReader(input, (JsonEncoding) null, context));
        }

        @Override
        protected YAMLParser _createParser(Reader reader, IOContext context) {
            return parser(context, reader);
        }

        @Override
        protected YAMLParser _createParser(char[] data, int offset, int length, IOContext context, boolean recyclable) {
            return parser(context, new CharArrayReader(data, offset, length));
        }

        @Override
        protected YAMLParser _createParser(byte[] data, int offset, int length, IOContext context) throws IOException {
            return parser(context, _createReader(data, offset, length, (JsonEncoding) null, context));
        }

        private YAMLParser parser(IOContext context, Reader reader) {
            return new AliasResolvingYamlParser(
                    context, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec, reader);
        }
    }
}
