package io.shardvault.s3.internal.xml;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;

/** Builds an S3 XML document. Not thread-safe; one document per instance. */
public final class XmlWriter {
    public static final String S3_NS = "http://s3.amazonaws.com/doc/2006-03-01/";
    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ISO_INSTANT;

    private final StringBuilder sb = new StringBuilder(256).append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    private final Deque<String> open = new ArrayDeque<>();

    /** Opens the root element with the S3 namespace. */
    public static XmlWriter document(String root) {
        XmlWriter w = new XmlWriter();
        w.sb.append('<').append(root).append(" xmlns=\"").append(S3_NS).append("\">");
        w.open.push(root);
        return w;
    }

    /** Opens the root element without a namespace (error bodies). */
    public static XmlWriter plainDocument(String root) {
        XmlWriter w = new XmlWriter();
        w.sb.append('<').append(root).append('>');
        w.open.push(root);
        return w;
    }

    public XmlWriter start(String name) {
        sb.append('<').append(name).append('>');
        open.push(name);
        return this;
    }

    /** Opens an element with attributes, given as name, value pairs (values are escaped). */
    public XmlWriter startWithAttributes(String name, String... attributes) {
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name, value pairs: " + attributes.length);
        }
        sb.append('<').append(name);
        for (int i = 0; i < attributes.length; i += 2) {
            sb.append(' ').append(attributes[i]).append("=\"");
            escape(attributes[i + 1]);
            sb.append('"');
        }
        sb.append('>');
        open.push(name);
        return this;
    }

    public XmlWriter end() {
        sb.append("</").append(open.pop()).append('>');
        return this;
    }

    /** An element with text; skipped when {@code value} is null. */
    public XmlWriter element(String name, Object value) {
        if (value == null) {
            return this;
        }
        sb.append('<').append(name).append('>');
        escape(value instanceof Instant i ? formatTime(i) : value.toString());
        sb.append("</").append(name).append('>');
        return this;
    }

    /** Text inside the current element. */
    public XmlWriter text(String value) {
        escape(value);
        return this;
    }

    public static String formatTime(Instant t) {
        // S3 always shows milliseconds: 2024-01-02T03:04:05.000Z.
        String s = ISO_MILLIS.format(t.truncatedTo(ChronoUnit.MILLIS));
        return s.length() == 20 ? s.substring(0, 19) + ".000Z" : s;
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                case '\r' -> sb.append("&#13;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        sb.append("&#").append((int) c).append(';');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
    }

    public byte[] toBytes() {
        while (!open.isEmpty()) {
            end();
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
