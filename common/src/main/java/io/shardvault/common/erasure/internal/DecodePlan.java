package io.shardvault.common.erasure.internal;

/**
 * How to rebuild chunks for one erasure pattern: which k chunks are read ({@code survivors}, in
 * increasing order) and, for every other chunk ({@code lost}, in increasing order), the row of k
 * GF(2^8) coefficients that makes it from the survivors. A lost data chunk's row is a row of the
 * inverted survivor matrix; a lost parity chunk's row is its coding row times that inverse.
 *
 * <p>Immutable once built; shared between threads through the plan cache.
 *
 * @param <P> the engine's prepared form of the rows (a direct buffer, or lookup tables)
 */
final class DecodePlan<P> {
    final int[] survivors;
    final int[] lost;
    final int[] rows;
    final P prepared;

    DecodePlan(int[] survivors, int[] lost, int[] rows, P prepared) {
        this.survivors = survivors;
        this.lost = lost;
        this.rows = rows;
        this.prepared = prepared;
    }
}
