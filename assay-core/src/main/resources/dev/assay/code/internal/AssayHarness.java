// Assay's Java harness. Reads its configuration (with the run's nonce) from the first line of stdin, calls the
// candidate's Solution method (or design class) per case in its own thread with a timeout, and reports on a
// private stream over the original stdout, each line prefixed with the nonce, ending in a sentinel. The
// candidate's System.out goes to stderr. Parameter names come from compiling with -parameters.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

public final class AssayHarness {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static PrintStream channel;
    private static String nonce;

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        JsonNode config = MAPPER.readTree(in.readLine());
        nonce = config.get("nonce").asText();
        channel = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        long timeoutMillis = (long) (config.path("case_timeout").asDouble(4) * 1000);
        String entry = config.path("entry_point").asText("");
        int index = 0;
        for (JsonNode testCase : config.get("cases")) {
            final int i = index++;
            AtomicReference<ObjectNode> result = new AtomicReference<>();
            Thread worker = new Thread(() -> result.set(runCase(i, testCase, entry)));
            worker.setDaemon(true);
            worker.start();
            worker.join(timeoutMillis);
            ObjectNode record = result.get();
            if (record == null) {
                record = NODES.objectNode().put("i", i).put("status", "timeout");
            }
            emit(record);
        }
        emit(NODES.objectNode().put("end", true));
        channel.flush();
        Runtime.getRuntime().halt(0);
    }

    private static void emit(ObjectNode record) throws Exception {
        channel.println(nonce + " " + MAPPER.writeValueAsString(record));
    }

    private static ObjectNode runCase(int index, JsonNode testCase, String entry) {
        ObjectNode record = NODES.objectNode().put("i", index);
        try {
            JsonNode input = testCase.get("input");
            JsonNode actual = testCase.path("design").asBoolean() ? design(input) : call(input, entry);
            record.put("status", "ok").set("actual", actual);
        } catch (Throwable error) {
            Throwable cause = error instanceof InvocationTargetException ite && ite.getCause() != null
                    ? ite.getCause() : error;
            String message = cause.getClass().getName() + ": " + cause.getMessage();
            record.put("status", "runtime_error").put("message", message.length() > 2000
                    ? message.substring(0, 2000) : message);
        }
        return record;
    }

    private static JsonNode call(JsonNode input, String entry) throws Exception {
        Class<?> solution = Class.forName("Solution");
        List<Method> methods = new ArrayList<>();
        for (Method method : solution.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()) {
                methods.add(method);
            }
        }
        Method target = choose(methods, entry, input);
        Constructor<?> constructor = solution.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object instance = Modifier.isStatic(target.getModifiers()) ? null : constructor.newInstance();
        target.setAccessible(true);
        List<Integer> byValue = new ArrayList<>();
        Object[] values = bind(target, input, byValue);
        Object result = target.invoke(instance, values);
        if (target.getReturnType() == void.class) {
            if (values.length == 0) {
                return NODES.nullNode();
            }
            // Judged on the first argument after the call; an empty tree or list is [] as in the examples.
            return values[0] == null && isStructure(target.getParameterTypes()[0])
                    ? NODES.arrayNode() : toJson(values[0]);
        }
        if (!byValue.isEmpty() && result != null && isStructure(result.getClass())) {
            // Nodes named by value in, a node's value out (LCA answers 6, not the subtree under 6).
            return toJson(result.getClass().getDeclaredField("val").get(result));
        }
        return toJson(result);
    }

    private static boolean isStructure(Class<?> type) {
        return type.getSimpleName().equals("TreeNode") || type.getSimpleName().equals("ListNode");
    }

    /**
     * The entry point among the public methods (a solution with helpers): the one named, else the only one, else
     * the one whose parameter names are the examples' argument names, else the only one taking as many arguments.
     */
    private static Method choose(List<Method> methods, String entry, JsonNode input) {
        for (Method method : methods) {
            if (method.getName().equals(entry)) {
                return method;
            }
        }
        if (methods.size() == 1) {
            return methods.get(0);
        }
        List<String> names = new ArrayList<>();
        input.fieldNames().forEachRemaining(name -> {
            if (!name.startsWith("#")) {
                names.add(name);
            }
        });
        List<Method> byNames = new ArrayList<>();
        List<Method> byCount = new ArrayList<>();
        for (Method method : methods) {
            List<String> parameters = new ArrayList<>();
            for (Parameter parameter : method.getParameters()) {
                parameters.add(parameter.getName());
            }
            if (!names.isEmpty() && parameters.size() == names.size() && parameters.containsAll(names)) {
                byNames.add(method);
            }
            if (parameters.size() == input.size()) {
                byCount.add(method);
            }
        }
        if (byNames.size() == 1) {
            return byNames.get(0);
        }
        if (byCount.size() == 1) {
            return byCount.get(0);
        }
        throw new IllegalStateException("cannot tell which Solution method to call: " + methods);
    }

    private static JsonNode design(JsonNode input) throws Exception {
        JsonNode operations = input.get("operations");
        JsonNode arguments = input.get("arguments");
        Class<?> type = Class.forName(operations.get(0).asText());
        Object instance = null;
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (constructor.getParameterCount() == arguments.get(0).size()) {
                constructor.setAccessible(true);
                instance = constructor.newInstance(convert(constructor, arguments.get(0)));
            }
        }
        if (instance == null) {
            throw new IllegalStateException("no constructor of " + type.getName() + " takes "
                    + arguments.get(0).size() + " arguments");
        }
        ArrayNode results = NODES.arrayNode().addNull();
        for (int i = 1; i < operations.size(); i++) {
            Method method = null;
            for (Method candidate : type.getDeclaredMethods()) {
                if (candidate.getName().equals(operations.get(i).asText())
                        && candidate.getParameterCount() == arguments.get(i).size()) {
                    method = candidate;
                }
            }
            if (method == null) {
                throw new IllegalStateException("no method " + operations.get(i).asText());
            }
            method.setAccessible(true);
            Object result = method.invoke(instance, convert(method, arguments.get(i)));
            results.add(method.getReturnType() == void.class ? NODES.nullNode() : toJson(result));
        }
        return results;
    }

    private static Object[] convert(Executable executable, JsonNode positional) throws Exception {
        Parameter[] parameters = executable.getParameters();
        Object[] values = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            values[i] = fromJson(positional.get(i), parameters[i].getType(), parameters[i].getParameterizedType());
        }
        return values;
    }

    /** Named arguments by parameter name, positional ones (#0, #1...) first, unmatched names in order. */
    private static Object[] bind(Method method, JsonNode input, List<Integer> byValue) throws Exception {
        Parameter[] parameters = method.getParameters();
        Map<String, JsonNode> values = new HashMap<>();
        List<JsonNode> positional = new ArrayList<>();
        List<JsonNode> unmatched = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Parameter parameter : parameters) {
            names.add(parameter.getName());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = input.fields(); it.hasNext(); ) {
            var entry = it.next();
            if (entry.getKey().startsWith("#")) {
                positional.add(entry.getValue());
            }
        }
        for (int i = 0; i < Math.min(positional.size(), names.size()); i++) {
            values.put(names.get(i), positional.get(i));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = input.fields(); it.hasNext(); ) {
            var entry = it.next();
            if (entry.getKey().startsWith("#")) {
                continue;
            }
            if (names.contains(entry.getKey()) && !values.containsKey(entry.getKey())) {
                values.put(entry.getKey(), entry.getValue());
            } else {
                unmatched.add(entry.getValue());
            }
        }
        for (String name : names) {
            if (!values.containsKey(name) && !unmatched.isEmpty()) {
                values.put(name, unmatched.remove(0));
            }
        }
        if (!unmatched.isEmpty() || values.size() != names.size()) {
            throw new IllegalArgumentException("arguments do not fit parameters " + names);
        }
        Object[] converted = new Object[parameters.length];
        Object structure = null;
        for (int i = 0; i < parameters.length; i++) {
            JsonNode value = values.get(names.get(i));
            if (isStructure(parameters[i].getType()) && value != null && value.isValueNode() && !value.isNull()) {
                // A TreeNode/ListNode given a plain value names a node of the structure another argument builds.
                byValue.add(i);
                continue;
            }
            converted[i] = fromJson(value, parameters[i].getType(), parameters[i].getParameterizedType());
            if (structure == null && converted[i] != null && isStructure(converted[i].getClass())) {
                structure = converted[i];
            }
        }
        for (int i : byValue) {
            if (structure == null) {
                throw new IllegalArgumentException("a node is named by value but no argument is a tree or list");
            }
            converted[i] = findNode(structure, values.get(names.get(i)));
        }
        return converted;
    }

    private static Object fromJson(JsonNode value, Class<?> type, Type generic) throws Exception {
        String name = type.getSimpleName();
        if (name.equals("ListNode")) {
            return listNode(type, value);
        }
        if (name.equals("TreeNode")) {
            return treeNode(type, value);
        }
        if (type.isArray() && type.getComponentType().getSimpleName().equals("ListNode")) {
            Object array = Array.newInstance(type.getComponentType(), value.size());
            for (int i = 0; i < value.size(); i++) {
                Array.set(array, i, listNode(type.getComponentType(), value.get(i)));
            }
            return array;
        }
        return MAPPER.convertValue(value, MAPPER.getTypeFactory().constructType(generic));
    }

    private static Object findNode(Object root, JsonNode value) throws Exception {
        ArrayDeque<Object> pending = new ArrayDeque<>(List.of(root));
        while (!pending.isEmpty()) {
            Object node = pending.pop();
            Class<?> type = node.getClass();
            if (toJson(type.getDeclaredField("val").get(node)).equals(value)) {
                return node;
            }
            for (String link : new String[] {"left", "right", "next"}) {
                try {
                    Object next = type.getDeclaredField(link).get(node);
                    if (next != null) {
                        pending.push(next);
                    }
                } catch (NoSuchFieldException absent) {
                    // a list node has no left or right, a tree node no next
                }
            }
        }
        throw new IllegalArgumentException("no node with value " + value + " in the structure given");
    }

    private static Object listNode(Class<?> type, JsonNode values) throws Exception {
        Object head = null;
        for (int i = values.size() - 1; i >= 0; i--) {
            Object node = type.getDeclaredConstructor(int.class).newInstance(values.get(i).asInt());
            type.getDeclaredField("next").set(node, head);
            head = node;
        }
        return head;
    }

    private static Object treeNode(Class<?> type, JsonNode values) throws Exception {
        if (values == null || values.isEmpty() || values.get(0).isNull()) {
            return null;
        }
        Constructor<?> make = type.getDeclaredConstructor(int.class);
        Object root = make.newInstance(values.get(0).asInt());
        ArrayDeque<Object> queue = new ArrayDeque<>(List.of(root));
        int index = 1;
        while (!queue.isEmpty() && index < values.size()) {
            Object node = queue.poll();
            for (String side : new String[] {"left", "right"}) {
                if (index < values.size() && !values.get(index).isNull()) {
                    Object child = make.newInstance(values.get(index).asInt());
                    type.getDeclaredField(side).set(node, child);
                    queue.add(child);
                }
                index++;
            }
        }
        return root;
    }

    private static JsonNode toJson(Object value) throws Exception {
        if (value == null) {
            return NODES.nullNode();
        }
        Class<?> type = value.getClass();
        if (type.getSimpleName().equals("ListNode")) {
            ArrayNode out = NODES.arrayNode();
            for (Object node = value; node != null && out.size() < 1_000_000; node = type.getDeclaredField("next").get(node)) {
                out.add(toJson(type.getDeclaredField("val").get(node)));
            }
            return out;
        }
        if (type.getSimpleName().equals("TreeNode")) {
            ArrayNode out = NODES.arrayNode();
            List<Object> order = new ArrayList<>(Arrays.asList(value));
            for (int i = 0; i < order.size(); i++) {
                Object node = order.get(i);
                if (node == null) {
                    out.addNull();
                    continue;
                }
                out.add(toJson(type.getDeclaredField("val").get(node)));
                order.add(type.getDeclaredField("left").get(node));
                order.add(type.getDeclaredField("right").get(node));
            }
            while (!out.isEmpty() && out.get(out.size() - 1).isNull()) {
                out.remove(out.size() - 1);
            }
            return out;
        }
        if (value instanceof char[] chars) {
            ArrayNode out = NODES.arrayNode();
            for (char c : chars) {
                out.add(String.valueOf(c));
            }
            return out;
        }
        if (type.isArray() && !type.getComponentType().isPrimitive()) {
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < Array.getLength(value); i++) {
                out.add(toJson(Array.get(value, i)));
            }
            return out;
        }
        if (value instanceof Iterable<?> items) {
            ArrayNode out = NODES.arrayNode();
            for (Object item : items) {
                out.add(toJson(item));
            }
            return out;
        }
        return MAPPER.valueToTree(value);
    }
}
