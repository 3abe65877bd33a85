package io.shardvault.s3.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.s3.testing.S3ServerFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Buckets on a server configured for a region other than us-east-1: its answers to CreateBucket of an existing
 * bucket, HeadBucket, GetBucketLocation and ListBuckets' region filter. (us-east-1's are in {@code SdkSyncSuite}.)
 */
@Timeout(120)
class BucketRegionTest {
    private static final String REGION = "eu-west-1";

    @Test
    void anExistingBucketIsAlreadyOwnedOrAlreadyExistsAndBucketsTellTheirRegion() throws Exception {
        try (S3ServerFixture fixture = S3ServerFixture.start(false, c -> c.withRegion(REGION));
             S3Client s3 = fixture.syncClient();
             S3Client other = fixture.syncClient(S3ServerFixture.OTHER_ACCESS_KEY, S3ServerFixture.OTHER_SECRET_KEY)) {
            s3.createBucket(b -> b.bucket("regional").createBucketConfiguration(c -> c.locationConstraint(REGION)));
            assertThatThrownBy(() -> s3.createBucket(b -> b.bucket("regional")))
                    .isInstanceOfSatisfying(BucketAlreadyOwnedByYouException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(409));
            assertThatThrownBy(() -> other.createBucket(b -> b.bucket("regional")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(409);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketAlreadyExists");
                    });
            assertThat(s3.headBucket(b -> b.bucket("regional")).bucketRegion()).isEqualTo(REGION);
            assertThat(s3.getBucketLocation(b -> b.bucket("regional")).locationConstraintAsString()).isEqualTo(REGION);
            assertThat(s3.listBuckets(b -> b.bucketRegion(REGION)).buckets()).extracting(b -> b.name())
                    .containsExactly("regional");
            assertThat(s3.listBuckets(b -> b.bucketRegion("us-east-1")).buckets()).isEmpty();
        }
    }
}
