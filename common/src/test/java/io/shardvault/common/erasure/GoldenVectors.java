package io.shardvault.common.erasure;

import io.shardvault.common.crc.Crc32c;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The golden vectors of {@code erasure/golden-vectors.txt}: for each, the layout, stripe length, chunk
 * length and seed of a stripe, and the CRC32C and SHA-256 of each of its k + m chunks as the native
 * engine made them (format described in docs/ERASURE_FORMAT.md and at the top of the file). Small
 * vectors also carry every chunk's bytes in hex.
 */
public final class GoldenVectors {

    public static final String RESOURCE = "erasure/golden-vectors.txt";
    /** Chunks up to this long are stored in full. */
    static final int FULL_BYTES_MAX = 64;

    /** One stripe and its chunks' digests. */
    public record Vector(ErasureLayout layout, int stripeBytes, int chunkLength, long seed, List<ChunkDigest> chunks) {
        @Override
        public String toString() {
            return layout + " stripe=" + stripeBytes + " chunk=" + chunkLength + " seed=" + seed;
        }
    }

    /** The digests (and, for small chunks, the bytes) of one chunk. */
    public record ChunkDigest(int index, int crc32c, String sha256, byte[] bytes) {
    }

    /** The stripes the vectors are made of: layout, stripe length, chunk length (0 = the format's rule). */
    static final Object[][] SPECS = {
        {"4+2", 1, 0}, {"4+2", 100, 0}, {"4+2", 4000, 1001}, {"4+2", 4096, 0},
        {"6+3", 1000, 0}, {"6+3", 65536, 0},
        {"16+4", 1 << 20, 0}, {"16+4", 1_000_003, 0},
        {"17+3", 1 << 20, 0}, {"17+3", 262_144, 0},
        {"15+5", 1 << 20, 0}, {"15+5", 12_345, 0},
        {"1+1", 33, 0}, {"10+4", 777, 0}, {"32+8", 100_000, 0},
    };
    static final long BASE_SEED = 0x5EED_0F_E4A5_0001L;

    private GoldenVectors() {
    }

    /** Allocates a stripe's k + m chunks and fills the data chunks from its seed (parity left zero). */
    public static ByteBuffer[] stripe(ErasureLayout layout, int stripeBytes, int chunkLength, long seed) {
        ByteBuffer stripe = ByteBuffer.allocateDirect(Math.max(1, stripeBytes));
        TestData.fill(stripe, stripeBytes, seed);
        stripe.limit(stripeBytes);
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(layout.n(), chunkLength);
        ByteBuffer[] data = java.util.Arrays.copyOf(chunks, layout.k());
        ErasureStripes.split(stripe, data, chunkLength);
        return chunks;
    }

    static ChunkDigest digest(int index, ByteBuffer chunk, int chunkLength) {
        return new ChunkDigest(index, Crc32c.of(chunk.slice(chunk.position(), chunkLength)),
                TestData.sha256(chunk, chunkLength), chunkLength <= FULL_BYTES_MAX ? TestData.bytes(chunk, chunkLength) : null);
    }

    public static List<Vector> load() {
        InputStream in = GoldenVectors.class.getClassLoader().getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException(RESOURCE + " missing from the test classpath");
        }
        List<Vector> vectors = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            Vector current = null;
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("vector")) {
                    current = new Vector(ErasureLayout.parse(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                            Long.parseUnsignedLong(f[4], 16), new ArrayList<>());
                    vectors.add(current);
                } else if (f[0].equals("chunk") && current != null) {
                    byte[] bytes = f.length > 4 ? HexFormat.of().parseHex(f[4]) : null;
                    current.chunks().add(new ChunkDigest(Integer.parseInt(f[1]),
                            Integer.parseUnsignedInt(f[2], 16), f[3], bytes));
                } else {
                    throw new IllegalStateException("bad golden vector line: " + line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return vectors;
    }
}
