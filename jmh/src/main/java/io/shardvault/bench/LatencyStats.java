package io.shardvault.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A latency distribution (samples in nanoseconds) kept as an HdrHistogram with {@value #SIGNIFICANT_DIGITS}
 * significant digits, so that every percentile is within 0.1% of the sample it names and two runs merge into
 * the distribution of their union (percentiles of percentiles would not). Immutable: the histogram is copied in
 * and never handed out.
 */
public final class LatencyStats {
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram;

    private LatencyStats(Histogram histogram) {
        this.histogram = histogram;
    }

    public static LatencyStats of(long[] nanos) {
        Histogram h = newHistogram();
        for (long n : nanos) {
            h.recordValue(n);
        }
        return new LatencyStats(h);
    }

    /** A copy of {@code histogram}'s distribution. */
    static LatencyStats of(AbstractHistogram histogram) {
        Histogram h = newHistogram();
        h.add(histogram);
        return new LatencyStats(h);
    }

    /** An auto-resizing histogram with this class's precision, for recording samples in nanoseconds. */
    static Histogram newHistogram() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    /** The distribution of both sets of samples. */
    LatencyStats merge(LatencyStats other) {
        Histogram h = newHistogram();
        h.add(histogram);
        h.add(other.histogram);
        return new LatencyStats(h);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public double meanMs() {
        return count() == 0 ? 0 : histogram.getMean() / 1e6;
    }

    public double p50Ms() {
        return percentileMs(50);
    }

    public double p90Ms() {
        return percentileMs(90);
    }

    public double p99Ms() {
        return percentileMs(99);
    }

    public double p999Ms() {
        return percentileMs(99.9);
    }

    public double maxMs() {
        return count() == 0 ? 0 : histogram.getMaxValue() / 1e6;
    }

    /** The smallest recorded value (within the precision) with at least {@code percentile}% at or below it. */
    public double percentileMs(double percentile) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * The percentile distribution as HdrHistogram prints it ({@code outputPercentileDistribution}): points
     * {percentile, ms} whose spacing halves with each halving of the distance to 100%, {@code ticksPerHalf}
     * points per halving, ending at 100% (the maximum).
     */
    List<double[]> percentileCurve(int ticksPerHalf) {
        List<double[]> points = new ArrayList<>();
        if (count() == 0) {
            return points;
        }
        for (HistogramIterationValue v : histogram.percentiles(ticksPerHalf)) {
            points.add(new double[] {v.getPercentileLevelIteratedTo(), v.getValueIteratedTo() / 1e6});
        }
        return points;
    }

    /** HdrHistogram's compressed encoding in base64, as its histogram log files carry it. */
    String encoded() {
        ByteBuffer buf = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int n = histogram.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
    }

    static LatencyStats decode(String base64) {
        try {
            Histogram decoded = Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
            return of(decoded);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an HdrHistogram in compressed base64: " + e.getMessage(), e);
        }
    }
}
