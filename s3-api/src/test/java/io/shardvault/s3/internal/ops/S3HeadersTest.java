package io.shardvault.s3.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.internal.S3Request;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Request headers to stored metadata, stored metadata to response headers. */
@Timeout(30)
class S3HeadersTest {

    private static S3Request request(HttpHeaders headers) {
        return new S3Request(HttpMethod.PUT, "/b/k", "", "b", "k", List.of(), headers, "id");
    }

    @Test
    void lastModifiedIsAnImfFixdateWithATwoDigitDay() {
        ObjectInfo info = new ObjectInfo("k", null, 1, "etag", Instant.parse("2026-12-03T04:05:06.789Z"),
                ObjectMetadata.EMPTY, null, 0, ObjectLock.NONE, false);
        HttpHeaders h = new DefaultHttpHeaders();
        S3Headers.objectHeaders(h, info, false);
        assertThat(h.get("Last-Modified")).isEqualTo("Thu, 03 Dec 2026 04:05:06 GMT");
    }

    @Test
    void aRepeatedHeaderIsItsValuesJoined() {
        HttpHeaders h = new DefaultHttpHeaders().add("Content-Encoding", "deflate").add("Content-Encoding", "deflate")
                .add("Cache-Control", "no-cache").add("cache-control", "max-age=0");
        ObjectMetadata m = S3Headers.metadata(request(h));
        assertThat(m.contentEncoding()).isEqualTo("deflate, deflate");
        assertThat(m.cacheControl()).isEqualTo("no-cache, max-age=0");
    }

    @Test
    void awsChunkedIsDroppedFromContentEncodingAndAnythingElseKeptAsSent() {
        assertThat(S3Headers.metadata(request(new DefaultHttpHeaders().add("Content-Encoding", "aws-chunked")))
                .contentEncoding()).isNull();
        assertThat(S3Headers.metadata(request(new DefaultHttpHeaders().add("Content-Encoding", "aws-chunked")
                .add("Content-Encoding", "gzip"))).contentEncoding()).isEqualTo("gzip");
        assertThat(S3Headers.metadata(request(new DefaultHttpHeaders().add("Content-Encoding", "gzip,br")))
                .contentEncoding()).isEqualTo("gzip,br");
    }
}
