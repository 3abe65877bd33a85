package io.shardvault.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.s3.internal.S3Error;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** PutBucketLifecycleConfiguration's document: what is read, what is refused and how, and the round trip. */
class LifecycleConfigurationTest {
    private static LifecycleConfiguration parse(String rules) {
        return LifecycleConfiguration.parse(("<LifecycleConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + rules + "</LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8));
    }

    private static S3Error error(String rules) {
        try {
            parse(rules);
        } catch (S3Error e) {
            return e;
        }
        throw new AssertionError("accepted: " + rules);
    }

    @Test
    void readsEveryActionAsTheSdkSendsIt() {
        LifecycleConfiguration c = parse("<Rule><ID>logs</ID><Filter><Prefix>logs/</Prefix></Filter>"
                + "<Status>Enabled</Status><Expiration><Days>30</Days></Expiration>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>7</NoncurrentDays>"
                + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>3</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule>"
                + "<Rule><ID>markers</ID><Filter></Filter><Status>Disabled</Status>"
                + "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration></Rule>"
                + "<Rule><ID>date</ID><Prefix>old/</Prefix><Status>Enabled</Status>"
                + "<Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration></Rule>");
        assertThat(c.rules()).containsExactly(
                new LifecycleRule("logs", true, "logs/", 30, Optional.empty(), false, 7, 2, 3),
                new LifecycleRule("markers", false, "", 0, Optional.empty(), true, 0, 0, 0),
                new LifecycleRule("date", true, "old/", 0, Optional.of(Instant.parse("2030-01-01T00:00:00Z")), false,
                        0, 0, 0));
        assertThat(LifecycleConfiguration.parse(c.toXml())).isEqualTo(c);
    }

    @Test
    void aRuleWithoutAnIdIsNamed() {
        assertThat(parse("<Rule><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>").rules().get(0)
                .id()).isEqualTo("rule-1");
    }

    @Test
    void transitionsAndTagOrSizeFiltersAreRefusedNotDropped() {
        String expire = "<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>";
        assertThat(error("<Rule><ID>t</ID><Filter/>" + expire + "<Transition><Days>1</Days>"
                + "<StorageClass>GLACIER</StorageClass></Transition></Rule>").code()).isEqualTo("NotImplemented");
        assertThat(error("<Rule><ID>t</ID><Filter/>" + expire + "<NoncurrentVersionTransition><NoncurrentDays>1"
                + "</NoncurrentDays><StorageClass>GLACIER</StorageClass></NoncurrentVersionTransition></Rule>").code())
                .isEqualTo("NotImplemented");
        assertThat(error("<Rule><ID>t</ID><Filter><Tag><Key>a</Key><Value>b</Value></Tag></Filter>" + expire
                + "</Rule>").code()).isEqualTo("NotImplemented");
        assertThat(error("<Rule><ID>t</ID><Filter><And><Prefix>a</Prefix><Tag><Key>a</Key><Value>b</Value></Tag></And>"
                + "</Filter>" + expire + "</Rule>").code()).isEqualTo("NotImplemented");
        assertThat(error("<Rule><ID>t</ID><Filter><ObjectSizeGreaterThan>10</ObjectSizeGreaterThan></Filter>" + expire
                + "</Rule>").status().code()).isEqualTo(501);
    }

    @Test
    void validatesAsS3Does() {
        assertThat(error("").code()).isEqualTo("MalformedXML");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>On</Status><Expiration><Days>1</Days></Expiration></Rule>")
                .code()).isEqualTo("MalformedXML");
        S3Error days = error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>"
                + "</Rule>");
        assertThat(days.code()).isEqualTo("InvalidArgument");
        assertThat(days.extra()).containsEntry("ArgumentName", "Days");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><Expiration><Days>-3</Days></Expiration>"
                + "</Rule>").code()).isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><NoncurrentVersionExpiration>"
                + "<NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration></Rule>").code())
                .isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><AbortIncompleteMultipartUpload>"
                + "<DaysAfterInitiation>x</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>").code())
                .isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><Expiration><Date>2030-01-01T10:00:00Z"
                + "</Date></Expiration></Rule>").code()).isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days>"
                + "<ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration></Rule>").code())
                .isEqualTo("MalformedXML");
        assertThat(error("<Rule><ID>a</ID><Filter/><Prefix>x</Prefix><Status>Enabled</Status>"
                + "<Expiration><Days>1</Days></Expiration></Rule>").code()).isEqualTo("MalformedXML");
        assertThat(error("<Rule><ID>a</ID><Filter/><Status>Enabled</Status></Rule>").code()).isEqualTo("InvalidRequest");
        String dup = "<Rule><ID>same</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>";
        assertThat(error(dup + dup).code()).isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>" + "x".repeat(256) + "</ID><Filter/><Status>Enabled</Status><Expiration><Days>1"
                + "</Days></Expiration></Rule>").code()).isEqualTo("InvalidArgument");
        assertThatThrownBy(() -> LifecycleConfiguration.parse("<VersioningConfiguration/>".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(S3Error.class).extracting(e -> ((S3Error) e).code()).isEqualTo("MalformedXML");
    }

    @Test
    void atMostAThousandRules() {
        String rules = IntStream.rangeClosed(1, 1000).mapToObj(i -> "<Rule><ID>r" + i + "</ID><Filter/><Status>Enabled"
                + "</Status><Expiration><Days>1</Days></Expiration></Rule>").collect(Collectors.joining());
        assertThat(parse(rules).rules()).hasSize(1000);
        assertThat(error(rules + "<Rule><ID>r1001</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days>"
                + "</Expiration></Rule>").code()).isEqualTo("InvalidArgument");
    }
}
