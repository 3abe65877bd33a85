package io.shardvault.s3.raw;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.s3.testing.S3ServerFixture;
import io.shardvault.s3.testing.S3Target;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link RawHttpSuite} against the S3 server over the in-memory store. */
@Timeout(120)
class RawHttpTest extends RawHttpSuite {
    @Override
    protected S3Target startTarget() throws Exception {
        return S3ServerFixture.start();
    }

    @Test
    void signatureV2IsInvalidRequestWhenTurnedOff() throws Exception {
        try (S3ServerFixture off = S3ServerFixture.start(false, c -> c.withSigV2(false))) {
            String host = "127.0.0.1:" + off.port();
            TestSigner signer = new TestSigner(off.accessKey(), off.secretKey(), Instant.now());
            List<String[]> header = signer.signV2("GET", "/", RawHttp.headers("Host", host, "Date", signer.httpDate()));
            String url = "/?" + signer.presignV2("GET", "/", Instant.now().plusSeconds(60).getEpochSecond());
            for (String[] request : new String[][] {{"/", "header"}, {url, "query"}}) {
                try (RawHttp http = new RawHttp(off.port())) {
                    http.send(RawHttp.head("GET", request[0], request[1].equals("header") ? header
                            : RawHttp.headers("Host", host)), null);
                    RawHttp.Response r = http.read();
                    assertThat(r.status()).as(request[1]).isEqualTo(400);
                    assertThat(r.xml("Code")).isEqualTo("InvalidRequest");
                }
            }
        }
    }
}
