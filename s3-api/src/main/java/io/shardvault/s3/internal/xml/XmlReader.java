package io.shardvault.s3.internal.xml;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses a small XML request body into {@link XmlElement}s with the JDK's StAX parser, hardened:
 * any DTD (and so any entity declaration, internal or external) is refused outright rather than
 * ignored, external entities are off (only the five predefined entities exist), and depth and element counts are
 * bounded. The caller bounds the byte size before parsing. Thread-safe (the factory is only read).
 */
public final class XmlReader {
    private static final int MAX_DEPTH = 16;
    private static final int MAX_ELEMENTS = 50_000;
    private static final XMLInputFactory FACTORY = createFactory();

    private XmlReader() {
    }

    private static XMLInputFactory createFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setXMLResolver((publicId, systemId, baseUri, ns) -> {
            throw new XMLStreamException("external entities are refused");
        });
        return f;
    }

    /** The root element, or throws {@link MalformedXmlException}. */
    public static XmlElement parse(byte[] body) throws MalformedXmlException {
        if (body.length == 0) {
            throw new MalformedXmlException("empty body");
        }
        XMLStreamReader r = null;
        try {
            r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
            Deque<XmlElement> stack = new ArrayDeque<>();
            XmlElement root = null;
            int elements = 0;
            while (r.hasNext()) {
                int ev = r.next();
                switch (ev) {
                    case XMLStreamConstants.DTD:
                    case XMLStreamConstants.ENTITY_REFERENCE:
                    case XMLStreamConstants.ENTITY_DECLARATION:
                    case XMLStreamConstants.NOTATION_DECLARATION:
                        throw new MalformedXmlException("DTDs and entities are not allowed");
                    case XMLStreamConstants.START_ELEMENT: {
                        if (++elements > MAX_ELEMENTS || stack.size() >= MAX_DEPTH) {
                            throw new MalformedXmlException("document too large or too deep");
                        }
                        XmlElement e = new XmlElement(r.getLocalName());
                        if (stack.isEmpty()) {
                            if (root != null) {
                                throw new MalformedXmlException("more than one root");
                            }
                            root = e;
                        } else {
                            stack.peek().children().add(e);
                        }
                        stack.push(e);
                        break;
                    }
                    case XMLStreamConstants.END_ELEMENT:
                        stack.pop();
                        break;
                    case XMLStreamConstants.CHARACTERS:
                    case XMLStreamConstants.CDATA:
                    case XMLStreamConstants.SPACE:
                        if (!stack.isEmpty()) {
                            stack.peek().textBuilder().append(r.getText());
                        } else if (!r.isWhiteSpace()) {
                            throw new MalformedXmlException("text outside the root");
                        }
                        break;
                    default:
                        break;
                }
            }
            if (root == null) {
                throw new MalformedXmlException("no root element");
            }
            return root;
        } catch (XMLStreamException | RuntimeException e) {
            throw new MalformedXmlException(e.getMessage());
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // Nothing to release beyond the in-memory stream.
                }
            }
        }
    }

    /** The body is not acceptable XML. */
    public static final class MalformedXmlException extends Exception {
        private static final long serialVersionUID = 1L;

        public MalformedXmlException(String message) {
            super(message);
        }
    }
}
