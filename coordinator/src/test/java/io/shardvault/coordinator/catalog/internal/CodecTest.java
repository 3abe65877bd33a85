package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CodecTest {
    private static final FileRef FILE = new FileRef(3, 1L << 40, 12345, new FileLayout(16, 4, 65536), List.of(2, 19));
    private static final ObjectMetadata MD = new ObjectMetadata("text/plain", Map.of("cache-control", "no-cache"),
            Map.of("owner", "ünïcode"), Map.of("CRC32C", "AAAAAA=="), "FULL_OBJECT");

    @Test
    void putRequestRoundTrips() {
        PutObjectVersion p = new PutObjectVersion("b", "k/é", 12345, "etag", MD, List.of(new FilePart(0, "etag", FILE)),
                WriteCondition.ifMatch("x"), Optional.of(new Retention(RetentionMode.COMPLIANCE,
                Instant.ofEpochMilli(1_800_000_000_000L))), true);
        Wire.Writer w = new Wire.Writer();
        ObjectVersions.putRequest(w, p);
        Wire.Reader r = new Wire.Reader(w.toByteArray());
        assertThat(ObjectVersions.putRequest(r)).isEqualTo(p);
        r.expectEnd();
    }

    @Test
    void partsRoundTripWithAndWithoutChecksumsAndPartsRecordedBeforeChecksumsDecode() {
        UploadedPart plain = new UploadedPart(10_000, "etag", FILE, Instant.ofEpochMilli(7));
        UploadedPart summed = new UploadedPart(1, "etag", FILE, Instant.ofEpochMilli(7), Map.of("CRC32", "AAAAAA=="));
        for (UploadedPart p : List.of(plain, summed)) {
            Wire.Writer w = new Wire.Writer();
            Uploads.part(w, p);
            Wire.Reader r = new Wire.Reader(w.toByteArray());
            assertThat(Uploads.part(r)).isEqualTo(p);
            r.expectEnd();
        }
        // The layout before part checksums: u16 number | str etag | fileRef | i64 lastModified, nothing more.
        Wire.Writer old = new Wire.Writer().u16(7).str("e");
        Codec.fileRef(old, FILE);
        Codec.instant(old, Instant.ofEpochMilli(9));
        Wire.Reader r = new Wire.Reader(old.toByteArray());
        assertThat(Uploads.part(r)).isEqualTo(new UploadedPart(7, "e", FILE, Instant.ofEpochMilli(9)));
        r.expectEnd();
    }

    @Test
    void storedVersionRoundTripsAndIdsSortNewestFirst() {
        StoredVersion v = new StoredVersion(42, false, false, 12345, "etag", Instant.ofEpochMilli(5), MD,
                List.of(new FilePart(1, "a", FILE)), Optional.empty(), false);
        assertThat(StoredVersion.decode(v.encode())).isEqualTo(v);
        assertThat(Keys.versionId(43)).isLessThan(Keys.versionId(42));
        assertThat(Keys.seqOf(Keys.versionId(42))).isEqualTo(42);
        assertThat(Keys.seqOf(ObjectVersion.NULL_VERSION_ID)).isEqualTo(-1);
        assertThat(Keys.compare(Keys.versionKey(1, Keys.utf8("a"), 43), Keys.versionKey(1, Keys.utf8("a"), 42)))
                .isNegative();
        assertThat(Keys.compare(Keys.versionKey(1, Keys.utf8("a"), 1), Keys.versionKey(1, Keys.utf8("a/"), 9)))
                .isNegative();
    }

    @Test
    void truncatedInputIsRejected() {
        byte[] full = new StoredVersion(1, true, true, 0, "", Instant.EPOCH, ObjectMetadata.EMPTY, List.of(),
                Optional.empty(), false).encode();
        for (int n = 0; n < full.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(full, n);
            assertThatThrownBy(() -> StoredVersion.decode(cut)).isInstanceOf(RuntimeException.class);
        }
    }
}
