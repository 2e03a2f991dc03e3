package dev.assay.cases.parquet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.cases.DatasetFormat;
import dev.assay.cases.DatasetRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Parquet ({@code .parquet}), the format Hugging Face publishes datasets in, read by Apache Parquet's reader from a
 * local file a row group at a time and handed on a row at a time, so a file of any size is read in the memory of one
 * row group's pages. Columns become the row's fields: strings, numbers and booleans as they are, lists ({@code LIST})
 * as JSON lists, maps ({@code MAP}) and other groups as JSON objects, other binary values as Base64. Thread-safe
 * (stateless).
 */
public final class ParquetDataset implements DatasetFormat {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Override
    public String name() {
        return "parquet";
    }

    @Override
    public List<String> extensions() {
        return List.of(".parquet");
    }

    @Override
    public void read(Path file, Rows rows) throws IOException {
        var options =
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageColumnIO columns = new ColumnIOFactory().getColumnIO(schema);
            long number = 0;
            for (PageReadStore pages = reader.readNextRowGroup(); pages != null; pages = reader.readNextRowGroup()) {
                RecordReader<Group> records = columns.getRecordReader(pages, new GroupRecordConverter(schema));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    number++;
                    rows.row(new DatasetRow(number, 0, object(records.read(), schema)));
                }
            }
        }
    }

    private static ObjectNode object(Group group, GroupType type) {
        ObjectNode node = NODES.objectNode();
        for (int field = 0; field < type.getFieldCount(); field++) {
            Type fieldType = type.getType(field);
            int count = group.getFieldRepetitionCount(field);
            if (fieldType.isRepetition(Type.Repetition.REPEATED)) {
                ArrayNode values = node.putArray(fieldType.getName());
                for (int index = 0; index < count; index++) {
                    values.add(value(group, field, index, fieldType));
                }
            } else {
                node.set(fieldType.getName(), count == 0 ? NODES.nullNode() : value(group, field, 0, fieldType));
            }
        }
        return node;
    }

    private static JsonNode value(Group group, int field, int index, Type type) {
        if (type.isPrimitive()) {
            return primitive(group, field, index, type.asPrimitiveType());
        }
        Group nested = group.getGroup(field, index);
        GroupType groupType = type.asGroupType();
        LogicalTypeAnnotation annotation = groupType.getLogicalTypeAnnotation();
        if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && groupType.getFieldCount() == 1) {
            return list(nested, groupType.getType(0));
        }
        if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation && groupType.getFieldCount() == 1) {
            return map(nested, groupType.getType(0));
        }
        return object(nested, groupType);
    }

    /** A list: its repeated field holds a group of one element (the standard three levels), or the elements. */
    private static ArrayNode list(Group list, Type repeated) {
        ArrayNode values = NODES.arrayNode();
        int count = list.getFieldRepetitionCount(0);
        for (int index = 0; index < count; index++) {
            if (!repeated.isPrimitive() && repeated.asGroupType().getFieldCount() == 1) {
                Group element = list.getGroup(0, index);
                Type elementType = repeated.asGroupType().getType(0);
                values.add(
                        element.getFieldRepetitionCount(0) == 0 ? NODES.nullNode() : value(element, 0, 0, elementType));
            } else {
                values.add(value(list, 0, index, repeated));
            }
        }
        return values;
    }

    private static ObjectNode map(Group map, Type repeated) {
        ObjectNode node = NODES.objectNode();
        int count = map.getFieldRepetitionCount(0);
        for (int index = 0; index < count; index++) {
            Group entry = map.getGroup(0, index);
            GroupType entryType = repeated.asGroupType();
            String key = value(entry, 0, 0, entryType.getType(0)).asText();
            boolean present = entryType.getFieldCount() > 1 && entry.getFieldRepetitionCount(1) > 0;
            node.set(key, present ? value(entry, 1, 0, entryType.getType(1)) : NODES.nullNode());
        }
        return node;
    }

    private static JsonNode primitive(Group group, int field, int index, PrimitiveType type) {
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> NODES.booleanNode(group.getBoolean(field, index));
            case INT32 -> NODES.numberNode(group.getInteger(field, index));
            case INT64 -> NODES.numberNode(group.getLong(field, index));
            case FLOAT -> NODES.numberNode(group.getFloat(field, index));
            case DOUBLE -> NODES.numberNode(group.getDouble(field, index));
            case BINARY, FIXED_LEN_BYTE_ARRAY ->
                isText(type.getLogicalTypeAnnotation())
                        ? NODES.textNode(group.getString(field, index))
                        : NODES.textNode(Base64.getEncoder()
                                .encodeToString(group.getBinary(field, index).getBytes()));
            case INT96 -> NODES.textNode(group.getValueToString(field, index));
        };
    }

    private static boolean isText(LogicalTypeAnnotation annotation) {
        return annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
    }
}
