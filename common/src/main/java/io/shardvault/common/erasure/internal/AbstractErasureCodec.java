package io.shardvault.common.erasure.internal;

import io.shardvault.common.erasure.ErasureCodec;
import io.shardvault.common.erasure.ErasureLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every engine shares: argument checks, the choice of survivors, and the bounded cache of
 * {@link DecodePlan}s keyed by erasure pattern (the set of survivors read).
 *
 * <p>Thread-safe. The cache is a concurrent map; when it is full an arbitrary entry is dropped
 * before a new one is added, so it may briefly exceed its bound by the number of racing threads.
 *
 * @param <P> the engine's prepared form of a plan's rows
 */
abstract class AbstractErasureCodec<P> implements ErasureCodec {

    /** Chunk start addresses must be multiples of this (gf-complete's SIMD alignment). */
    static final int ALIGNMENT = 16;

    protected final ErasureLayout layout;
    protected final int k;
    protected final int m;
    protected final int n;
    /** The m x k coding matrix, row-major. */
    protected final int[] coding;

    private final ConcurrentHashMap<BitSet, DecodePlan<P>> plans = new ConcurrentHashMap<>();
    private final int maxPlans;
    private final boolean checkAlignmentInJava;

    AbstractErasureCodec(ErasureLayout layout, int[] coding, int maxPlans, boolean checkAlignmentInJava) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.k = layout.k();
        this.m = layout.m();
        this.n = layout.n();
        if (coding.length != m * k) {
            throw new IllegalArgumentException("coding matrix must be m x k");
        }
        if (maxPlans < 1) {
            throw new IllegalArgumentException("maxPlans must be >= 1: " + maxPlans);
        }
        this.coding = coding.clone();
        this.maxPlans = maxPlans;
        this.checkAlignmentInJava = checkAlignmentInJava;
    }

    @Override
    public final ErasureLayout layout() {
        return layout;
    }

    /** A copy of the coding matrix (m rows of k), for tests that compare engines. */
    public final int[] codingMatrix() {
        return coding.clone();
    }

    @Override
    public final void encode(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength) {
        checkChunkLength(chunkLength);
        checkArray(data, k, "data");
        checkArray(parity, m, "parity");
        for (int i = 0; i < k; i++) {
            checkBuffer(data[i], chunkLength, "data[" + i + "]", false);
        }
        for (int i = 0; i < m; i++) {
            checkBuffer(parity[i], chunkLength, "parity[" + i + "]", true);
        }
        if (chunkLength > 0) {
            encodeChecked(data, parity, chunkLength);
        }
    }

    @Override
    public final void decode(ByteBuffer[] chunks, boolean[] present, int chunkLength) {
        checkChunkLength(chunkLength);
        checkArray(chunks, n, "chunks");
        Objects.requireNonNull(present, "present");
        if (present.length != n) {
            throw new IllegalArgumentException("present must have k + m = " + n + " entries: " + present.length);
        }
        int[] survivors = new int[k];
        int found = 0;
        boolean wanted = false;
        for (int i = 0; i < n; i++) {
            if (present[i]) {
                if (found < k) {
                    if (chunks[i] == null) {
                        throw new IllegalArgumentException("chunks[" + i + "] is marked present but is null");
                    }
                    checkBuffer(chunks[i], chunkLength, "chunks[" + i + "]", false);
                    survivors[found++] = i;
                }
            } else if (chunks[i] != null) {
                checkBuffer(chunks[i], chunkLength, "chunks[" + i + "]", true);
                wanted = true;
            }
        }
        if (found < k) {
            throw new IllegalArgumentException("only " + found + " chunks present; layout " + layout + " needs " + k);
        }
        if (!wanted || chunkLength == 0) {
            return;
        }
        decodeChecked(plan(survivors), chunks, present, chunkLength);
    }

    /** Number of cached decode plans, for tests. */
    final int cachedPlans() {
        return plans.size();
    }

    final DecodePlan<P> plan(int[] survivors) {
        BitSet key = new BitSet(n);
        for (int s : survivors) {
            key.set(s);
        }
        DecodePlan<P> plan = plans.get(key);
        if (plan != null) {
            return plan;
        }
        plan = buildPlan(survivors);
        if (plans.size() >= maxPlans) {
            Iterator<BitSet> it = plans.keySet().iterator();
            if (it.hasNext()) {
                it.next();
                it.remove();
            }
        }
        DecodePlan<P> raced = plans.putIfAbsent(key, plan);
        return raced != null ? raced : plan;
    }

    private DecodePlan<P> buildPlan(int[] survivors) {
        int[] inverse = invert(survivors.clone());
        int[] lost = new int[m];
        int[] rows = new int[m * k];
        int r = 0;
        int s = 0;
        for (int i = 0; i < n; i++) {
            if (s < k && survivors[s] == i) {
                s++;
                continue;
            }
            lost[r] = i;
            int[] row = i < k ? Arrays.copyOfRange(inverse, i * k, i * k + k)
                    : ReedSolomonMatrices.multiplyRow(coding, (i - k) * k, inverse, k);
            System.arraycopy(row, 0, rows, r * k, k);
            r++;
        }
        return new DecodePlan<>(survivors, lost, rows, prepare(rows, m));
    }

    /** The k x k inverse of the survivors' rows (survivors in increasing order). */
    abstract int[] invert(int[] survivors);

    /** The engine's form of {@code rowCount} rows of k coefficients. */
    abstract P prepare(int[] rows, int rowCount);

    abstract void encodeChecked(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength);

    /** Writes every non-present chunk with a non-null buffer; arguments are checked. */
    abstract void decodeChecked(DecodePlan<P> plan, ByteBuffer[] chunks, boolean[] present, int chunkLength);

    private static void checkChunkLength(int chunkLength) {
        if (chunkLength < 0) {
            throw new IllegalArgumentException("chunkLength must be >= 0: " + chunkLength);
        }
    }

    private static void checkArray(ByteBuffer[] array, int expected, String name) {
        Objects.requireNonNull(array, name);
        if (array.length != expected) {
            throw new IllegalArgumentException(name + " must have " + expected + " entries: " + array.length);
        }
    }

    private void checkBuffer(ByteBuffer buffer, int chunkLength, String name, boolean output) {
        if (buffer == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(name + " is not a direct buffer");
        }
        if (output && buffer.isReadOnly()) {
            throw new IllegalArgumentException(name + " is read-only");
        }
        if (buffer.remaining() < chunkLength) {
            throw new IllegalArgumentException(name + " has " + buffer.remaining() + " bytes remaining, needs "
                    + chunkLength);
        }
        if (checkAlignmentInJava && buffer.alignmentOffset(buffer.position(), ALIGNMENT) != 0) {
            throw new IllegalArgumentException(name + " does not start on a " + ALIGNMENT + "-byte boundary (off by "
                    + buffer.alignmentOffset(buffer.position(), ALIGNMENT) + "); allocate with AlignedBuffers");
        }
    }
}
