package io.shardvault.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The percentile charts: a "nines" x axis with labelled ticks, and series told apart without colour. */
class ChartWriterTest {
    @TempDir
    Path dir;

    @Test
    void theXAxisIsNinesLabelledAsPercentiles() {
        assertThat(List.of(0.0, 1.0, 2.0, 3.0, 4.0, 5.0)).extracting(ChartWriter::ninesLabel)
                .containsExactly("0%", "90%", "99%", "99.9%", "99.99%", "99.999%");
        assertThat(ChartWriter.ninesLabel(0.5)).isEmpty();
        assertThat(ChartWriter.ninesLabel(2.25)).isEmpty();

        XYChart chart = ChartWriter.percentileChart("t", List.of(result("a", 1, 10_000)),
                ChartWriter::seriesName);
        Function<Double, String> labels = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        assertThat(labels.apply(3.0)).isEqualTo("99.9%");
        assertThat(chart.getStyler().getXAxisMin()).isZero();
        assertThat(chart.getStyler().getXAxisMax()).isEqualTo(4.0);
        assertThat(chart.getStyler().isXAxisLogarithmic()).isFalse();
        assertThat(chart.getYAxisTitle()).isEqualTo("latency (ms)");
    }

    @Test
    void aCurveRunsFromTheMinimumAtZeroToTheMaximumAtTheNineItsSamplesResolve() {
        LatencyStats latency = result("a", 1, 1000).latency();

        double[][] xy = ChartWriter.ninesCurve(latency);

        assertThat(xy[0][0]).isZero();
        assertThat(xy[0][xy[0].length - 1]).isCloseTo(3.0, within(1e-9));
        assertThat(xy[1][xy[1].length - 1]).isEqualTo(latency.maxMs());
        for (int i = 1; i < xy[0].length; i++) {
            assertThat(xy[0][i]).isGreaterThan(xy[0][i - 1]);
            assertThat(xy[1][i]).isGreaterThanOrEqualTo(xy[1][i - 1]);
        }
        // The point at x = 1 (if drawn) is the p90, at 2 the p99.
        for (int i = 0; i < xy[0].length; i++) {
            if (Math.abs(xy[0][i] - 2) < 1e-9) {
                assertThat(xy[1][i]).isEqualTo(latency.p99Ms());
            }
        }
    }

    @Test
    void eachSeriesHasItsOwnDashMarkerAndGreyLevelAndTheLegendNamesItsClients() throws Exception {
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            results.add(result("cfg" + i, i == 0 ? 1 : 8 * i, 200 + i));
        }

        XYChart chart = ChartWriter.percentileChart("t", results, ChartWriter::seriesName);

        List<XYSeries> series = new ArrayList<>(chart.getSeriesMap().values());
        assertThat(series).extracting(XYSeries::getName).startsWith("cfg0, 1 client", "cfg1, 8 clients",
                "cfg2, 16 clients");
        assertThat(series.subList(0, 4)).extracting(XYSeries::getLineStyle).doesNotHaveDuplicates();
        assertThat(series).extracting(XYSeries::getMarker).doesNotHaveDuplicates();
        assertThat(series).extracting(XYSeries::getLineColor).doesNotHaveDuplicates();
        List<Integer> greys = series.stream().map(s -> grey(s.getLineColor())).toList();
        for (int i = 1; i < greys.size(); i++) {
            assertThat(Math.abs(greys.get(i) - greys.get(i - 1))).as("grey step %s", i).isGreaterThan(25);
        }

        List<Path> files = ChartWriter.write(dir, results);
        assertThat(files).hasSize(1);
        assertThat(Files.size(files.get(0))).isGreaterThan(5000);
        assertThat(ImageIO.read(files.get(0).toFile()).getWidth()).isEqualTo(900);
    }

    private static int grey(Color c) {
        return (int) Math.round(0.299 * c.getRed() + 0.587 * c.getGreen() + 0.114 * c.getBlue());
    }

    private static Result result(String label, int clients, int samples) {
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            nanos[i] = 2_000_000L + (long) i * i * 50 + (i % 7) * 100_000L;
        }
        return new Result(label, "throughput", "PUT", 1 << 20, clients, LatencyStats.of(nanos), 1, 1, 1);
    }
}
