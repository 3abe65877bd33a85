package io.shardvault.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/**
 * Writes PNG charts with XChart: per (scenario, op, size), latency percentile curves (percentile on x, log
 * latency on y), one line per configuration (label and client count). Runs headless.
 */
final class ChartWriter {
    private ChartWriter() {
    }

    /** Returns the files written. */
    static List<Path> write(Path dir, List<Result> results) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        Map<String, List<Result>> groups = new LinkedHashMap<>();
        for (Result r : results) {
            if (r.latency().count() > 0) {
                groups.computeIfAbsent(r.scenario() + "-" + r.op() + "-" + Sizes.format(r.sizeBytes()),
                        k -> new ArrayList<>()).add(r);
            }
        }
        List<Path> files = new ArrayList<>();
        double[] x = LatencyStats.CURVE_PERCENTILES;
        for (Map.Entry<String, List<Result>> g : groups.entrySet()) {
            XYChart chart = new XYChartBuilder().width(900).height(560).title(g.getKey() + " latency percentiles")
                    .xAxisTitle("percentile").yAxisTitle("latency (ms, log)").build();
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            for (Result r : g.getValue()) {
                double[] y = r.latency().curveMs().clone();
                for (int i = 0; i < y.length; i++) {
                    y[i] = Math.max(y[i], 0.001);
                }
                String name = r.label() + " x" + r.clients();
                if (!chart.getSeriesMap().containsKey(name)) {
                    chart.addSeries(name, x, y);
                }
            }
            Path file = dir.resolve(g.getKey().replaceAll("[^A-Za-z0-9-]", "_") + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }
}
