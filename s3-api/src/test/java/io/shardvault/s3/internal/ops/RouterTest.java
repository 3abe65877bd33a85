package io.shardvault.s3.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.shardvault.s3.AccessScope;
import io.shardvault.s3.internal.RequestParser;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whether each route writes (issue #21: a read-only key is refused every route that does), and the one
 * scope check over it: every request with a method that changes something routes to a writing route,
 * whatever its sub-resource, and a bucket-scoped key may name no other bucket, as target or copy source.
 */
class RouterTest {
    private static final RequestParser PARSER = new RequestParser(List.of());
    private static final AccessScope READ_ONLY = new AccessScope(Optional.empty(), true);
    private static final AccessScope ONE_BUCKET = new AccessScope(Optional.of("mine"), false);

    private static S3Request request(String method, String uri, String copySource) {
        DefaultHttpRequest http = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri);
        http.headers().set("host", "127.0.0.1");
        if (copySource != null) {
            http.headers().set("x-amz-copy-source", copySource);
        }
        return PARSER.parse(http, "test");
    }

    private static final String[] URIS = {"/", "/bkt", "/bkt/k", "/bkt?versioning", "/bkt?acl", "/bkt/k?acl",
        "/bkt?object-lock", "/bkt/k?retention", "/bkt/k?legal-hold", "/bkt?lifecycle", "/bkt?policy", "/bkt?uploads", "/bkt/k?uploads",
        "/bkt/k?uploadId=1", "/bkt/k?uploadId=1&partNumber=1", "/bkt?delete", "/bkt?location", "/bkt?versions",
        "/bkt?list-type=2", "/bkt?tagging", "/bkt/k?tagging", "/bkt?cors"};

    @Test
    void everyMethodThatChangesSomethingRoutesToAWritingRoute() {
        for (String uri : URIS) {
            for (String method : new String[] {"GET", "HEAD", "PUT", "POST", "DELETE"}) {
                for (String copy : new String[] {null, "/src/k"}) {
                    S3Request r = request(method, uri, copy);
                    Router.Route route = Router.route(r);
                    boolean changes = !method.equals("GET") && !method.equals("HEAD");
                    assertThat(route.writes()).as("%s %s (%s) copy=%s", method, uri, route.name(), copy)
                            .isEqualTo(changes);
                }
            }
        }
        assertThat(Router.route(request("PUT", "/bkt/k", "/src/k")).name()).isEqualTo("CopyObject");
        assertThat(Router.route(request("GET", "/bkt/k?retention", null)).name()).isEqualTo("GetObjectRetention");
    }

    private static void check(AccessScope scope, String method, String uri, String copySource) {
        S3Request r = request(method, uri, copySource);
        ScopeCheck.check(Router.route(r), scope, r);
    }

    private static void assertRefused(AccessScope scope, String method, String uri, String copySource) {
        assertThatThrownBy(() -> check(scope, method, uri, copySource)).isInstanceOfSatisfying(S3Error.class,
                e -> assertThat(e.code()).isEqualTo("AccessDenied"));
    }

    @Test
    void aReadOnlyScopeRefusesEveryWriteAndNoRead() {
        for (String uri : URIS) {
            assertThatCode(() -> check(READ_ONLY, "GET", uri, null)).doesNotThrowAnyException();
            assertThatCode(() -> check(READ_ONLY, "HEAD", uri, null)).doesNotThrowAnyException();
            for (String method : new String[] {"PUT", "POST", "DELETE"}) {
                assertRefused(READ_ONLY, method, uri, null);
            }
        }
    }

    @Test
    void aBucketScopeRefusesOtherBucketsAsTargetOrCopySource() {
        assertThatCode(() -> check(ONE_BUCKET, "GET", "/", null)).doesNotThrowAnyException();
        assertThatCode(() -> check(ONE_BUCKET, "GET", "/mine?list-type=2", null)).doesNotThrowAnyException();
        assertThatCode(() -> check(ONE_BUCKET, "PUT", "/mine/k", "/mine/src")).doesNotThrowAnyException();
        assertThatCode(() -> check(ONE_BUCKET, "PUT", "/mine/k?uploadId=1&partNumber=1", "mine/src"))
                .doesNotThrowAnyException();
        assertRefused(ONE_BUCKET, "GET", "/other?list-type=2", null);
        assertRefused(ONE_BUCKET, "HEAD", "/other", null);
        assertRefused(ONE_BUCKET, "GET", "/other/k", null);
        assertRefused(ONE_BUCKET, "PUT", "/other", null);
        assertRefused(ONE_BUCKET, "PUT", "/other/k", "/mine/src");
        assertRefused(ONE_BUCKET, "PUT", "/mine/k", "/other/src");
        assertRefused(ONE_BUCKET, "PUT", "/mine/k?uploadId=1&partNumber=1", "/other/src?versionId=3");
        assertRefused(ONE_BUCKET, "POST", "/other?delete", null);
    }
}
