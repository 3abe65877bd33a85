package io.shardvault.common.erasure;

import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.erasure.internal.JerasureCodec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Writes {@code common/src/test/resources/erasure/golden-vectors.txt} with the native engine. Run once
 * per format version, never to "fix" a failing test: the vectors pin the format.
 *
 * <pre>
 * ./mvnw -B -q -pl common test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp common/target/classes:common/target/test-classes:$(cat common/target/cp.txt) \
 *     io.shardvault.common.erasure.GoldenVectorGenerator common/src/test/resources/erasure/golden-vectors.txt
 * </pre>
 */
public final class GoldenVectorGenerator {
    private GoldenVectorGenerator() {
    }

    public static void main(String[] args) throws IOException {
        Jerasure.ensureAvailability();
        Path out = Path.of(args[0]);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.US_ASCII))) {
            w.println("# shardvault erasure golden vectors, format v1 (docs/ERASURE_FORMAT.md).");
            w.println("# Generated once by GoldenVectorGenerator with the native engine (jerasure4j over Jerasure 2).");
            w.println("# vector <k+m> <stripeBytes> <chunkLength> <seed hex>: stripe = SplitMix64(seed) bytes, split");
            w.println("#   into k chunks of chunkLength with zero padding; parity = coding matrix x data.");
            w.println("# chunk <index> <crc32c hex> <sha256 hex> [<bytes hex> when chunkLength <= "
                    + GoldenVectors.FULL_BYTES_MAX + "]");
            for (int v = 0; v < GoldenVectors.SPECS.length; v++) {
                Object[] spec = GoldenVectors.SPECS[v];
                ErasureLayout layout = ErasureLayout.parse((String) spec[0]);
                int stripeBytes = (Integer) spec[1];
                int chunkLength = (Integer) spec[2] == 0 ? layout.chunkLength(stripeBytes) : (Integer) spec[2];
                long seed = GoldenVectors.BASE_SEED + v;
                ByteBuffer[] chunks = GoldenVectors.stripe(layout, stripeBytes, chunkLength, seed);
                new JerasureCodec(layout, 16).encode(Arrays.copyOf(chunks, layout.k()),
                        Arrays.copyOfRange(chunks, layout.k(), layout.n()), chunkLength);
                w.printf("vector %s %d %d %016x%n", layout, stripeBytes, chunkLength, seed);
                for (int i = 0; i < layout.n(); i++) {
                    GoldenVectors.ChunkDigest d = GoldenVectors.digest(i, chunks[i], chunkLength);
                    w.printf("chunk %d %s %s%s%n", i, Crc32c.format(d.crc32c()), d.sha256(),
                            d.bytes() == null ? "" : " " + HexFormat.of().formatHex(d.bytes()));
                }
            }
        }
    }
}
