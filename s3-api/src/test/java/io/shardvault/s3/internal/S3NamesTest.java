package io.shardvault.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class S3NamesTest {
    @Test
    void bucketNamesFollowS3Rules() {
        for (String ok : new String[] {"abc", "my-bucket.v2", "a".repeat(63), "1bucket"}) {
            assertThat(S3Names.isValidBucket(ok)).as(ok).isTrue();
        }
        for (String bad : new String[] {"ab", "a".repeat(64), "Abc", "a_b", "-ab", "ab-", "a..b", "a.-b",
            "10.0.0.1", "xn--ab", "ab-s3alias", "sthree-x"}) {
            assertThat(S3Names.isValidBucket(bad)).as(bad).isFalse();
        }
    }

    @Test
    void uriCodecIsStrictAndRoundTrips() {
        assertThat(UriCodec.decode("a%20b%2Fc+d", false)).isEqualTo("a b/c+d");
        assertThat(UriCodec.decode("a+b", true)).isEqualTo("a b");
        assertThat(UriCodec.encode("a b/ü~", true)).isEqualTo("a%20b/%C3%BC~");
        assertThat(UriCodec.encode("a/b", false)).isEqualTo("a%2Fb");
        for (String bad : new String[] {"%", "%4", "%zz", "%C3%28", "%FF"}) {
            assertThatThrownBy(() -> UriCodec.decode(bad, false)).as(bad).isInstanceOf(S3Error.class);
        }
    }
}
