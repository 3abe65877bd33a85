package io.shardvault.s3.internal.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class XmlReaderTest {
    private static XmlElement parse(String s) throws XmlReader.MalformedXmlException {
        return XmlReader.parse(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void parsesWithOrWithoutNamespace() throws Exception {
        for (String root : new String[] {"<Delete>", "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"}) {
            XmlElement e = parse(root + "<Quiet>true</Quiet><Object><Key>a&lt;b</Key></Object></Delete>");
            assertThat(e.name()).isEqualTo("Delete");
            assertThat(e.childText("Quiet")).isEqualTo("true");
            assertThat(e.first("Object").childText("Key")).isEqualTo("a<b");
        }
    }

    @Test
    void refusesDtdsEntitiesAndJunk() {
        String[] bad = {
            "<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>",
            "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/hostname\">]><a>&e;</a>",
            "<!DOCTYPE a SYSTEM \"http://127.0.0.1:1/a.dtd\"><a/>",
            "<!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><a>&b;</a>",
            "<a>", "", "text", "<a/><b/>", "<a>&undefined;</a>",
            "<a>" + "<b>".repeat(40) + "</b>".repeat(40) + "</a>",
        };
        for (String s : bad) {
            assertThatThrownBy(() -> parse(s)).as(s).isInstanceOf(XmlReader.MalformedXmlException.class);
        }
    }

    @Test
    void writerEscapesAndFormatsTimes() {
        String xml = new String(XmlWriter.document("R").element("K", "a<&>\"'b\u0001")
                .element("T", java.time.Instant.parse("2024-01-02T03:04:05Z")).toBytes(), StandardCharsets.UTF_8);
        assertThat(xml).contains("<K>a&lt;&amp;&gt;&quot;&apos;b&#1;</K>").contains("<T>2024-01-02T03:04:05.000Z</T>");
    }
}
