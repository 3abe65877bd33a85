package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class EntryFormatTest {
    private static final ShardId ID = new ShardId(1, 2, 3);
    private static final byte[] CHUNK = {10, 20, 30};
    private static final StashEntryInfo INFO = new StashEntryInfo(ID, 0x0102030405L, CHUNK.length, Crc32c.of(CHUNK),
            0x1122334455L);

    /**
     * Version 1 as committed: a change to these bytes breaks every stash on disk. The CRCs were
     * cross-checked with an independent CRC32C implementation.
     */
    @Test
    void version1BytesAreFixed() {
        byte[] chunkValue = EntryFormat.encodeChunkValue(INFO, Unpooled.wrappedBuffer(CHUNK));
        assertThat(String.format("%08x", Crc32c.of(CHUNK))).isEqualTo("da3327a7");
        assertThat(HexFormat.of().formatHex(chunkValue))
                .isEqualTo("4301" + "0000000102030405" + "da3327a7" + "0000001122334455" + "b408f7d5" + "0a141e");
        assertThat(HexFormat.of().formatHex(EntryFormat.encodeMetaValue(INFO)))
                .isEqualTo("4d01" + "0000000102030405" + "da3327a7" + "0000001122334455" + "00000003" + "29827935");
    }

    /** Version 2 as committed: the meta value with the chunk's place in the chunk log. */
    @Test
    void version2MetaBytesAreFixed() throws Exception {
        ChunkLocation location = new ChunkLocation(7, 0x123456);
        byte[] meta = EntryFormat.encodeMetaValue(INFO, location);
        assertThat(HexFormat.of().formatHex(meta)).isEqualTo("4d02" + "0000000102030405" + "da3327a7"
                + "0000001122334455" + "00000003" + "0000000000000007" + "0000000000123456" + "ea88c5b3");
        assertThat(EntryFormat.decodeIndexEntry(ID, meta)).isEqualTo(new IndexEntry(INFO, location));
        assertThat(EntryFormat.decodeIndexEntry(ID, EntryFormat.encodeMetaValue(INFO)))
                .as("a version 1 meta: chunk value in the default column family")
                .isEqualTo(new IndexEntry(INFO, null));
        for (int bit = 0; bit < meta.length * 8; bit++) {
            byte[] bad = meta.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThatThrownBy(() -> EntryFormat.decodeIndexEntry(ID, bad)).as("bit %d", bit)
                    .isInstanceOf(CorruptEntryException.class);
        }
    }

    @Test
    void roundTrips() throws Exception {
        byte[] chunkValue = EntryFormat.encodeChunkValue(INFO, Unpooled.wrappedBuffer(CHUNK));
        assertThat(EntryFormat.decodeChunkValue(ID, chunkValue)).isEqualTo(INFO);
        assertThat(EntryFormat.decodeMetaValue(ID, EntryFormat.encodeMetaValue(INFO))).isEqualTo(INFO);
    }

    @Test
    void everySingleBitFlipOfAChunkValueIsCaught() {
        byte[] good = EntryFormat.encodeChunkValue(INFO, Unpooled.wrappedBuffer(CHUNK));
        for (int bit = 0; bit < good.length * 8; bit++) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThatThrownBy(() -> EntryFormat.decodeChunkValue(ID, bad)).as("bit %d", bit)
                    .isInstanceOf(CorruptEntryException.class);
        }
    }

    @Test
    void everySingleBitFlipOfAMetaValueIsCaught() {
        byte[] good = EntryFormat.encodeMetaValue(INFO);
        for (int bit = 0; bit < good.length * 8; bit++) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThatThrownBy(() -> EntryFormat.decodeMetaValue(ID, bad)).as("bit %d", bit)
                    .isInstanceOf(CorruptEntryException.class);
        }
    }

    @Test
    void truncatedValuesAreCorrupt() {
        byte[] good = EntryFormat.encodeChunkValue(INFO, Unpooled.wrappedBuffer(CHUNK));
        for (int length = 0; length < good.length; length++) {
            byte[] truncated = java.util.Arrays.copyOf(good, length);
            assertThatThrownBy(() -> EntryFormat.decodeChunkValue(ID, truncated)).as("length %d", length)
                    .isInstanceOf(CorruptEntryException.class);
        }
        assertThatThrownBy(() -> EntryFormat.decodeMetaValue(ID, new byte[29]))
                .isInstanceOf(CorruptEntryException.class);
        byte[] futureVersion = EntryFormat.encodeMetaValue(INFO);
        futureVersion[1] = 2;
        assertThatThrownBy(() -> EntryFormat.decodeMetaValue(ID, futureVersion)).hasMessageContaining("version 2");
    }
}
