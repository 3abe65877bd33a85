package io.shardvault.s3.internal.ops;

import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Object Lock request bodies, as real clients send them (with and without the S3 namespace). */
@Timeout(30)
class LockOperationsTest {
    private static final String NS = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

    private static XmlElement xml(String s) throws XmlReader.MalformedXmlException {
        return XmlReader.parse(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void retentionIsReadWithOrWithoutTheNamespace() throws Exception {
        for (String ns : new String[] {"", NS}) {
            ObjectLock lock = LockOperations.parseRetention(xml("<Retention" + ns + "><Mode>COMPLIANCE</Mode>"
                    + "<RetainUntilDate>2999-01-02T03:04:05.000Z</RetainUntilDate></Retention>"));
            assertThat(lock).isEqualTo(new ObjectLock(RetentionMode.COMPLIANCE,
                    Instant.parse("2999-01-02T03:04:05Z"), false));
        }
        assertThat(LockOperations.parseRetention(xml("<Retention/>"))).isEqualTo(ObjectLock.NONE);
    }

    @Test
    void badRetentionsAreRefusedWithS3Codes() {
        assertThatThrownBy(() -> LockOperations.parseRetention(xml("<Retention><Mode>FOREVER</Mode>"
                + "<RetainUntilDate>2999-01-01T00:00:00Z</RetainUntilDate></Retention>")))
                .isInstanceOf(S3Error.class).extracting(e -> ((S3Error) e).code()).isEqualTo("MalformedXML");
        assertThatThrownBy(() -> LockOperations.parseRetention(xml("<Retention><Mode>GOVERNANCE</Mode>"
                + "</Retention>"))).extracting(e -> ((S3Error) e).code()).isEqualTo("MalformedXML");
        assertThatThrownBy(() -> LockOperations.parseRetention(xml("<Retention><Mode>GOVERNANCE</Mode>"
                + "<RetainUntilDate>2001-01-01T00:00:00Z</RetainUntilDate></Retention>")))
                .extracting(e -> ((S3Error) e).code()).isEqualTo("InvalidArgument");
    }

    @Test
    void lockConfigurationTakesDaysOrYears() throws Exception {
        assertThat(LockOperations.parseConfiguration(xml("<ObjectLockConfiguration" + NS + "><ObjectLockEnabled>"
                + "Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>COMPLIANCE</Mode><Days>30</Days>"
                + "</DefaultRetention></Rule></ObjectLockConfiguration>")))
                .isEqualTo(new ObjectLockConfiguration(true, RetentionMode.COMPLIANCE, 30, 0));
        assertThat(LockOperations.parseConfiguration(xml("<ObjectLockConfiguration><Rule><DefaultRetention>"
                + "<Mode>GOVERNANCE</Mode><Years>2</Years></DefaultRetention></Rule></ObjectLockConfiguration>")))
                .isEqualTo(new ObjectLockConfiguration(true, RetentionMode.GOVERNANCE, 0, 2));
        assertThat(LockOperations.parseConfiguration(xml("<ObjectLockConfiguration><ObjectLockEnabled>Enabled"
                + "</ObjectLockEnabled></ObjectLockConfiguration>")))
                .isEqualTo(new ObjectLockConfiguration(true, null, 0, 0));
        assertThatThrownBy(() -> LockOperations.parseConfiguration(xml("<ObjectLockConfiguration><Rule>"
                + "<DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days><Years>1</Years></DefaultRetention>"
                + "</Rule></ObjectLockConfiguration>"))).extracting(e -> ((S3Error) e).code())
                .isEqualTo("MalformedXML");
        assertThatThrownBy(() -> LockOperations.parseConfiguration(xml("<ObjectLockConfiguration><Rule>"
                + "<DefaultRetention><Mode>GOVERNANCE</Mode><Days>0</Days></DefaultRetention>"
                + "</Rule></ObjectLockConfiguration>"))).extracting(e -> ((S3Error) e).code())
                .isEqualTo("InvalidArgument");
    }
}
