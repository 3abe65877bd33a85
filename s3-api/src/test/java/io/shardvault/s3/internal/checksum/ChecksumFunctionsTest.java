package io.shardvault.s3.internal.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.MultipartChecksums;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@Timeout(60)
class ChecksumFunctionsTest {
    private static final Logger LOG = LoggerFactory.getLogger(ChecksumFunctionsTest.class);

    private static byte[] digest(ChecksumAlgorithm a, byte[] data, int off, int len) {
        ChecksumFunctions.Digest d = ChecksumFunctions.create(a);
        d.update(data, off, len);
        return d.finish();
    }

    @Test
    void catalogueCheckValues() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(ChecksumFunctions.toLong(digest(ChecksumAlgorithm.CRC32, check, 0, 9))).isEqualTo(0xCBF43926L);
        assertThat(ChecksumFunctions.toLong(digest(ChecksumAlgorithm.CRC32C, check, 0, 9))).isEqualTo(0xE3069283L);
        assertThat(ChecksumFunctions.toLong(digest(ChecksumAlgorithm.CRC64NVME, check, 0, 9)))
                .isEqualTo(0xAE8B14860A799888L);
        // Empty input: all-ones init and xor-out give zero.
        assertThat(ChecksumFunctions.toLong(digest(ChecksumAlgorithm.CRC64NVME, check, 0, 0))).isZero();
    }

    @Test
    void crc64IsTheSameWhateverTheUpdateSplit() {
        long seed = System.nanoTime();
        LOG.info("seed {}", seed);
        Random random = new Random(seed);
        byte[] data = new byte[10_000];
        random.nextBytes(data);
        long whole = ChecksumFunctions.toLong(digest(ChecksumAlgorithm.CRC64NVME, data, 0, data.length));
        ChecksumFunctions.Digest d = ChecksumFunctions.create(ChecksumAlgorithm.CRC64NVME);
        for (int off = 0; off < data.length; ) {
            int n = Math.min(data.length - off, random.nextInt(20));
            d.update(data, off, n);
            off += n;
        }
        assertThat(d.finishAsLong()).isEqualTo(whole);
    }

    @Test
    void combinedCrcsEqualTheCrcOfTheConcatenation() {
        long seed = System.nanoTime();
        LOG.info("seed {}", seed);
        Random random = new Random(seed);
        for (ChecksumAlgorithm a : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32C,
                ChecksumAlgorithm.CRC64NVME)) {
            byte[] data = new byte[50_000];
            random.nextBytes(data);
            List<Checksum> parts = new ArrayList<>();
            List<Long> sizes = new ArrayList<>();
            int[] cuts = {0, 1, 777, 20_000, 20_001, 50_000};
            for (int i = 0; i + 1 < cuts.length; i++) {
                int len = cuts[i + 1] - cuts[i];
                parts.add(new Checksum(a, Base64.getEncoder().encodeToString(digest(a, data, cuts[i], len)),
                        ChecksumType.FULL_OBJECT));
                sizes.add((long) len);
            }
            Checksum combined = MultipartChecksums.combine(a, ChecksumType.FULL_OBJECT, parts, sizes);
            assertThat(combined.value()).as(a.name())
                    .isEqualTo(Base64.getEncoder().encodeToString(digest(a, data, 0, data.length)));
            Checksum composite = MultipartChecksums.combine(a, ChecksumType.COMPOSITE, parts, sizes);
            assertThat(composite.value()).endsWith("-5");
        }
    }
}
