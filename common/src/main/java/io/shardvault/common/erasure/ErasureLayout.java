package io.shardvault.common.erasure;

/**
 * The shape of a Reed–Solomon code: {@code k} data chunks and {@code m} parity chunks per stripe.
 * Chunks are numbered {@code 0..k-1} (data) then {@code k..k+m-1} (parity); chunk i of every stripe
 * of a file makes shard i.
 *
 * <p>Over GF(2^8) the code exists for every {@code k >= 1}, {@code m >= 1} with {@code k + m <= 256}.
 * Production vaults use 16+4, 17+3 and 15+5. Immutable.
 *
 * @param k data chunks per stripe
 * @param m parity chunks per stripe; up to m lost chunks can be rebuilt
 */
public record ErasureLayout(int k, int m) {

    /** The largest {@code k + m} over GF(2^8): the Vandermonde construction needs distinct points. */
    public static final int MAX_CHUNKS = 256;

    public ErasureLayout {
        if (k < 1 || m < 1 || k + m > MAX_CHUNKS) {
            throw new IllegalArgumentException(
                    "erasure layout needs k >= 1, m >= 1 and k + m <= " + MAX_CHUNKS + ": k=" + k + ", m=" + m);
        }
    }

    /** Chunks per stripe, {@code k + m}. */
    public int n() {
        return k + m;
    }

    /** The chunk length for a stripe of {@code stripeBytes} bytes; see {@link ErasureStripes#chunkLength}. */
    public int chunkLength(long stripeBytes) {
        return ErasureStripes.chunkLength(stripeBytes, k);
    }

    /** Parses {@code "16+4"}. */
    public static ErasureLayout parse(String text) {
        int plus = text.indexOf('+');
        if (plus <= 0) {
            throw new IllegalArgumentException("erasure layout must look like 16+4: " + text);
        }
        try {
            return new ErasureLayout(Integer.parseInt(text.substring(0, plus).trim()),
                    Integer.parseInt(text.substring(plus + 1).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("erasure layout must look like 16+4: " + text, e);
        }
    }

    @Override
    public String toString() {
        return k + "+" + m;
    }
}
