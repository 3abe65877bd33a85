package io.shardvault.coordinator.admin.cli;

import java.lang.reflect.Array;
import java.util.Map;
import java.util.TreeMap;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/** Writes JMX open data (composite data, arrays, strings, numbers, booleans) as JSON. */
final class Json {
    private Json() {
    }

    static String of(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    /** An object of named values, in the given order. */
    static String object(Map<String, Object> fields) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, e.getKey());
            out.append(':');
            write(out, e.getValue());
        }
        return out.append('}').toString();
    }

    private static void write(StringBuilder out, Object v) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof CompositeData c) {
            Map<String, Object> fields = new TreeMap<>();
            for (String key : c.getCompositeType().keySet()) {
                fields.put(key, c.get(key));
            }
            out.append(object(new java.util.LinkedHashMap<>(fields)));
        } else if (v instanceof TabularData t) {
            write(out, t.values().toArray());
        } else if (v.getClass().isArray()) {
            out.append('[');
            for (int i = 0; i < Array.getLength(v); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(out, Array.get(v, i));
            }
            out.append(']');
        } else if (v instanceof Number || v instanceof Boolean) {
            out.append(v);
        } else {
            string(out, v.toString());
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
