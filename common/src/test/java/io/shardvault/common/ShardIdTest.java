package io.shardvault.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ShardIdTest {
    private static final Logger LOG = LoggerFactory.getLogger(ShardIdTest.class);

    private static List<ShardId> randomIds(Random random, int count) {
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // Mix small values (dense collisions on vault and shard) with extremes (sign bits).
            int vault = random.nextBoolean() ? random.nextInt(4) : random.nextInt(Integer.MAX_VALUE);
            long file = random.nextBoolean() ? random.nextInt(1000) : random.nextLong() & Long.MAX_VALUE;
            int shard = random.nextInt(256);
            ids.add(new ShardId(vault, file, shard));
        }
        ids.add(new ShardId(0, 0, 0));
        ids.add(new ShardId(Integer.MAX_VALUE, Long.MAX_VALUE, 255));
        return ids;
    }

    @Test
    void roundTripsThroughBytesAndBuffers() {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        ByteBuf buf = Unpooled.buffer();
        for (ShardId id : randomIds(random, 10_000)) {
            byte[] key = id.encode();
            assertThat(key).hasSize(ShardId.ENCODED_LENGTH);
            assertThat(ShardId.decode(key)).isEqualTo(id);
            buf.clear();
            id.writeTo(buf);
            assertThat(bytesOf(buf)).isEqualTo(key);
            assertThat(ShardId.readFrom(buf)).isEqualTo(id);
            assertThat(buf.isReadable()).isFalse();
        }
        buf.release();
    }

    private static byte[] bytesOf(ByteBuf buf) {
        return io.netty.buffer.ByteBufUtil.getBytes(buf);
    }

    @Test
    void encodedOrderIsVaultThenShardThenFile() {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        List<ShardId> ids = randomIds(new Random(seed), 20_000);
        List<ShardId> byKey = new ArrayList<>(ids);
        byKey.sort((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode()));
        List<ShardId> byFields = new ArrayList<>(ids);
        byFields.sort(ShardId.KEY_ORDER);
        assertThat(byKey).as("seed %d", seed).isEqualTo(byFields);
    }

    @Test
    void everyShardOfASlotStartsWithTheSlotPrefix() {
        Random random = new Random(7);
        for (ShardId id : randomIds(random, 1000)) {
            byte[] prefix = ShardId.slotPrefix(id.vaultId(), id.shardIndex());
            assertThat(Arrays.copyOf(id.encode(), ShardId.SLOT_PREFIX_LENGTH)).isEqualTo(prefix);
            byte[] otherSlot = ShardId.slotPrefix(id.vaultId(), (id.shardIndex() + 1) % 256);
            assertThat(Arrays.copyOf(id.encode(), ShardId.SLOT_PREFIX_LENGTH)).isNotEqualTo(otherSlot);
        }
    }

    @Test
    void rejectsOutOfRangeFieldsNamingThem() {
        assertThatThrownBy(() -> new ShardId(-1, 0, 0)).hasMessageContaining("vaultId");
        assertThatThrownBy(() -> new ShardId(0, -5, 0)).hasMessageContaining("fileId");
        assertThatThrownBy(() -> new ShardId(0, 0, 256)).hasMessageContaining("shardIndex");
        assertThatThrownBy(() -> ShardId.decode(new byte[12])).hasMessageContaining("13 bytes");
        assertThatThrownBy(() -> ShardId.decode(new byte[] {-128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}))
                .hasMessageContaining("vaultId");
        ByteBuf shortBuf = Unpooled.buffer().writeInt(1);
        assertThatThrownBy(() -> ShardId.readFrom(shortBuf)).hasMessageContaining("13 bytes");
        shortBuf.release();
    }

    @Test
    void printsAsVaultFileShard() {
        assertThat(new ShardId(3, 1234, 17)).hasToString("3/1234/17");
    }
}
