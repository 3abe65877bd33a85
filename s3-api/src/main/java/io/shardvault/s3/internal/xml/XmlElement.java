package io.shardvault.s3.internal.xml;

import java.util.ArrayList;
import java.util.List;

/** A parsed XML element: local name, text, children. Namespaces are ignored, as S3 does. */
public final class XmlElement {
    private final String name;
    private final StringBuilder text = new StringBuilder();
    private final List<XmlElement> children = new ArrayList<>();

    XmlElement(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public String text() {
        return text.toString().trim();
    }

    StringBuilder textBuilder() {
        return text;
    }

    public List<XmlElement> children() {
        return children;
    }

    /** The children of that name. */
    public List<XmlElement> all(String childName) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The first child of that name, or null. */
    public XmlElement first(String childName) {
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /** The text of the first child of that name (untrimmed), or null. */
    public String childText(String childName) {
        XmlElement c = first(childName);
        return c == null ? null : c.text.toString();
    }
}
