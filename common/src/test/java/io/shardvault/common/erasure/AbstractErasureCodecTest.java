package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.crc.Crc32c;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The suite every engine must pass: the golden vectors, decoding of every erasure pattern (4+2, 6+3)
 * or of 2,000 seeded random ones (16+4, 17+3), with data and parity checked, odd chunk lengths, and
 * the argument contract. Engines run it through thin subclasses.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class AbstractErasureCodecTest {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractErasureCodecTest.class);
    private static final long SEED = 0x3A7E_2026_1122L;

    /** A fresh codec of the engine under test. */
    abstract ErasureCodec newCodec(ErasureLayout layout);

    /** A stripe of seeded data and its parity as encoded by the engine under test. */
    private ByteBuffer[] encodedStripe(ErasureCodec codec, int chunkLength, long seed) {
        ErasureLayout layout = codec.layout();
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(layout.n(), chunkLength);
        for (int i = 0; i < layout.k(); i++) {
            TestData.fill(chunks[i], chunkLength, seed * 31 + i);
        }
        codec.encode(Arrays.copyOf(chunks, layout.k()), Arrays.copyOfRange(chunks, layout.k(), layout.n()),
                chunkLength);
        return chunks;
    }

    @Test
    void reproducesEveryGoldenVector() {
        List<GoldenVectors.Vector> vectors = GoldenVectors.load();
        assertThat(vectors).hasSizeGreaterThanOrEqualTo(12);
        for (GoldenVectors.Vector v : vectors) {
            ErasureLayout layout = v.layout();
            ByteBuffer[] chunks = GoldenVectors.stripe(layout, v.stripeBytes(), v.chunkLength(), v.seed());
            for (int i = layout.k(); i < layout.n(); i++) {
                TestData.poison(chunks[i], v.chunkLength());
            }
            newCodec(layout).encode(Arrays.copyOf(chunks, layout.k()),
                    Arrays.copyOfRange(chunks, layout.k(), layout.n()), v.chunkLength());
            assertThat(v.chunks()).as("chunks of %s", v).hasSize(layout.n());
            for (GoldenVectors.ChunkDigest expected : v.chunks()) {
                GoldenVectors.ChunkDigest actual = GoldenVectors.digest(expected.index(), chunks[expected.index()],
                        v.chunkLength());
                assertThat(Crc32c.format(actual.crc32c())).as("crc32c of chunk %d of %s", expected.index(), v)
                        .isEqualTo(Crc32c.format(expected.crc32c()));
                assertThat(actual.sha256()).as("sha256 of chunk %d of %s", expected.index(), v)
                        .isEqualTo(expected.sha256());
                if (expected.bytes() != null) {
                    assertThat(actual.bytes()).as("bytes of chunk %d of %s", expected.index(), v)
                            .isEqualTo(expected.bytes());
                }
            }
        }
    }

    @Test
    void decodesEveryPatternOfUpToMLostChunksFor4Plus2And6Plus3() {
        for (String layoutText : List.of("4+2", "6+3")) {
            ErasureLayout layout = ErasureLayout.parse(layoutText);
            ErasureCodec codec = newCodec(layout);
            for (int chunkLength : new int[] {16, 80, 37}) {
                ByteBuffer[] original = encodedStripe(codec, chunkLength, layout.n() + chunkLength);
                int patterns = 0;
                for (int mask = 1; mask < (1 << layout.n()); mask++) {
                    if (Integer.bitCount(mask) <= layout.m()) {
                        boolean[] lost = new boolean[layout.n()];
                        for (int i = 0; i < layout.n(); i++) {
                            lost[i] = (mask & (1 << i)) != 0;
                        }
                        decodeAndCheck(codec, original, lost, chunkLength);
                        patterns++;
                    }
                }
                int expected = layout.m() == 2 ? 6 + 15 : 9 + 36 + 84;
                assertThat(patterns).isEqualTo(expected);
            }
        }
    }

    @Test
    void decodes2000RandomPatternsFor16Plus4And17Plus3() {
        for (String layoutText : List.of("16+4", "17+3")) {
            ErasureLayout layout = ErasureLayout.parse(layoutText);
            ErasureCodec codec = newCodec(layout);
            long seed = SEED ^ layout.hashCode();
            LOG.info("random erasure patterns for {}: seed {}", layout, seed);
            SplittableRandom random = new SplittableRandom(seed);
            ByteBuffer[] aligned = encodedStripe(codec, 64, seed);
            ByteBuffer[] withTail = encodedStripe(codec, 61, seed + 1);
            for (int t = 0; t < 2000; t++) {
                boolean[] lost = new boolean[layout.n()];
                int count = 1 + random.nextInt(layout.m());
                for (int chosen = 0; chosen < count; ) {
                    int i = random.nextInt(layout.n());
                    if (!lost[i]) {
                        lost[i] = true;
                        chosen++;
                    }
                }
                if (t % 2 == 0) {
                    decodeAndCheck(codec, aligned, lost, 64);
                } else {
                    decodeAndCheck(codec, withTail, lost, 61);
                }
            }
        }
    }

    @Test
    void decodesFourLostDataChunksOfLargeStripes() {
        ErasureLayout layout = new ErasureLayout(16, 4);
        ErasureCodec codec = newCodec(layout);
        int chunkLength = layout.chunkLength(1 << 20);
        ByteBuffer[] original = encodedStripe(codec, chunkLength, 42);
        boolean[] lost = new boolean[layout.n()];
        lost[0] = lost[5] = lost[10] = lost[15] = true;
        decodeAndCheck(codec, original, lost, chunkLength);
    }

    /** Loses the marked chunks (poisoned fresh buffers), decodes, and compares every chunk with the original. */
    private static void decodeAndCheck(ErasureCodec codec, ByteBuffer[] original, boolean[] lost, int chunkLength) {
        int n = original.length;
        ByteBuffer[] chunks = new ByteBuffer[n];
        ByteBuffer[] fresh = AlignedBuffers.allocateChunks(n, chunkLength);
        boolean[] present = new boolean[n];
        for (int i = 0; i < n; i++) {
            present[i] = !lost[i];
            if (lost[i]) {
                chunks[i] = fresh[i];
                TestData.poison(chunks[i], chunkLength);
            } else {
                chunks[i] = original[i];
            }
        }
        codec.decode(chunks, present, chunkLength);
        for (int i = 0; i < n; i++) {
            assertThat(TestData.bytes(chunks[i], chunkLength))
                    .as("chunk %d of %s, lost %s, chunkLength %d", i, codec.layout(), Arrays.toString(lost), chunkLength)
                    .isEqualTo(TestData.bytes(original[i], chunkLength));
        }
    }

    @Test
    void decodeSkipsNullMissingChunksAndIgnoresExtraSurvivors() {
        ErasureLayout layout = new ErasureLayout(4, 2);
        ErasureCodec codec = newCodec(layout);
        ByteBuffer[] original = encodedStripe(codec, 48, 7);
        ByteBuffer[] chunks = original.clone();
        boolean[] present = {false, true, true, true, true, false};
        chunks[0] = AlignedBuffers.allocate(48);
        chunks[5] = null;
        codec.decode(chunks, present, 48);
        assertThat(TestData.bytes(chunks[0], 48)).isEqualTo(TestData.bytes(original[0], 48));

        // Five present: the fifth (parity 0) is neither read nor written, so garbage there is harmless.
        ByteBuffer[] extra = original.clone();
        extra[2] = AlignedBuffers.allocate(48);
        ByteBuffer garbage = AlignedBuffers.allocate(48);
        TestData.poison(garbage, 48);
        extra[5] = garbage;
        codec.decode(extra, new boolean[] {true, true, false, true, true, true}, 48);
        assertThat(TestData.bytes(extra[2], 48)).isEqualTo(TestData.bytes(original[2], 48));
        assertThat(TestData.bytes(garbage, 48)).containsOnly((byte) 0xA5);
    }

    @Test
    void respectsPositionsAndLeavesThemUnchanged() {
        ErasureLayout layout = new ErasureLayout(3, 2);
        ErasureCodec codec = newCodec(layout);
        ByteBuffer[] plain = encodedStripe(codec, 40, 99);
        ByteBuffer[] shifted = new ByteBuffer[layout.n()];
        for (int i = 0; i < layout.n(); i++) {
            shifted[i] = AlignedBuffers.allocate(64 + 40 + 16);
            shifted[i].position(64);
            if (i < layout.k()) {
                shifted[i].put(64, plain[i], 0, 40);
            }
        }
        codec.encode(Arrays.copyOf(shifted, 3), Arrays.copyOfRange(shifted, 3, 5), 40);
        for (int i = 0; i < layout.n(); i++) {
            assertThat(shifted[i].position()).isEqualTo(64);
            assertThat(TestData.bytes(shifted[i], 40)).isEqualTo(TestData.bytes(plain[i], 40));
            assertThat(shifted[i].get(63)).isZero();
            assertThat(shifted[i].get(104)).isZero();
        }
    }

    @Test
    void zeroLengthIsANoOpAndOneByteStripesWork() {
        ErasureCodec codec = newCodec(new ErasureLayout(2, 1));
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(3, 16);
        codec.encode(Arrays.copyOf(chunks, 2), Arrays.copyOfRange(chunks, 2, 3), 0);
        chunks[0].put(0, (byte) 7);
        chunks[1].put(0, (byte) 9);
        codec.encode(Arrays.copyOf(chunks, 2), Arrays.copyOfRange(chunks, 2, 3), 1);
        // Row k of the distribution matrix is all ones: the first parity is the XOR of the data.
        assertThat(chunks[2].get(0)).isEqualTo((byte) (7 ^ 9));
        assertThat(chunks[2].get(1)).isZero();
    }

    @Test
    void rejectsBadArgumentsWithoutWriting() {
        ErasureLayout layout = new ErasureLayout(4, 2);
        ErasureCodec codec = newCodec(layout);
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(6, 32);
        ByteBuffer[] data = Arrays.copyOf(chunks, 4);
        ByteBuffer[] parity = Arrays.copyOfRange(chunks, 4, 6);
        assertThatThrownBy(() -> codec.encode(Arrays.copyOf(data, 3), parity, 32))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data must have 4");
        assertThatThrownBy(() -> codec.encode(data, parity, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.encode(data, parity, 33)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("remaining");
        ByteBuffer[] heap = data.clone();
        heap[1] = ByteBuffer.allocate(32);
        assertThatThrownBy(() -> codec.encode(heap, parity, 32)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("direct");
        ByteBuffer[] readOnlyParity = {parity[0], parity[1].asReadOnlyBuffer()};
        assertThatThrownBy(() -> codec.encode(data, readOnlyParity, 32)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("read-only");
        boolean[] tooFew = {true, false, true, false, true, false};
        assertThatThrownBy(() -> codec.decode(chunks, tooFew, 32)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only 3 chunks present");
        ByteBuffer[] nullSurvivor = chunks.clone();
        nullSurvivor[1] = null;
        assertThatThrownBy(() -> codec.decode(nullSurvivor, new boolean[] {true, true, true, true, false, false}, 32))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        for (ByteBuffer chunk : chunks) {
            assertThat(TestData.bytes(chunk, 32)).containsOnly((byte) 0);
        }
    }

    @Test
    void misalignedBufferIsRejectedNotFatal() {
        ErasureLayout layout = new ErasureLayout(4, 2);
        ErasureCodec codec = newCodec(layout);
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(6, 64);
        ByteBuffer[] data = Arrays.copyOf(chunks, 4);
        ByteBuffer[] parity = Arrays.copyOfRange(chunks, 4, 6);
        ByteBuffer odd = AlignedBuffers.allocate(64 + 3);
        odd.position(3);
        data[2] = odd;
        assertThatThrownBy(() -> codec.encode(data, parity, 64)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16-byte");
        ByteBuffer[] forDecode = chunks.clone();
        forDecode[4] = odd;
        assertThatThrownBy(() -> codec.decode(forDecode, new boolean[] {true, true, true, false, false, true}, 64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16-byte");
        // Still usable afterwards.
        codec.encode(Arrays.copyOf(chunks, 4), parity, 64);
    }

    @Test
    void isThreadSafe() throws Exception {
        ErasureLayout layout = new ErasureLayout(6, 3);
        ErasureCodec codec = newCodec(layout);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = SEED + t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int round = 0; round < 200; round++) {
                        ByteBuffer[] original = encodedStripe(codec, 16 * (1 + random.nextInt(8)), seed + round);
                        boolean[] lost = new boolean[layout.n()];
                        lost[random.nextInt(layout.n())] = true;
                        lost[random.nextInt(layout.n())] = true;
                        decodeAndCheck(codec, original, lost, original[0].capacity());
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
