package io.shardvault.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes PNG charts with XChart: per (scenario, op, size), latency percentile curves as HdrHistogram's plots draw
 * them, one line per configuration (label and client count). The x axis is the "nines": x = log10(1/(1-p)), so
 * 0 is 0%, 1 is 90%, 2 is 99%, 3 is 99.9%, each labelled as its percentile, with 50% marked by a line; a run of
 * n samples reaches x = log10(n), where its maximum is drawn. Latency on a linear y axis in ms, from 0. Each
 * series has its own colour, dash and marker, so the lines stay apart printed in grey. Runs headless.
 */
final class ChartWriter {
    /** Points per halving of the distance to 100%, as HdrHistogram's {@code outputPercentileDistribution}. */
    private static final int TICKS_PER_HALF = 3;
    private static final double MEDIAN_X = Math.log10(2);

    /**
     * Okabe-Ito colours (told apart with every common colour blindness), ordered so that neighbours also
     * differ in grey level; its yellow is left out, too faint on white.
     */
    private static final Color[] COLORS = {
        new Color(0x000000), new Color(0xE69F00), new Color(0x0072B2), new Color(0x56B4E9),
        new Color(0xD55E00), new Color(0xCC79A7), new Color(0x009E73)};
    private static final BasicStroke[] LINES = {
        SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT, SeriesLines.DASH_DOT};
    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP,
        SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS, SeriesMarkers.OVAL};

    private ChartWriter() {
    }

    /**
     * Writes a chart per (scenario, op, size), a series per configuration, and for mixed runs one more per
     * (label, clients, size), a series per request. Returns the files written.
     */
    static List<Path> write(Path dir, List<Result> results) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<Path> files = write(dir, group(results, r -> r.scenario() + "-" + r.op()), ChartWriter::seriesName);
        List<Result> mixed = results.stream().filter(r -> r.scenario().equals("mixed")).toList();
        files.addAll(write(dir, group(mixed, r -> "mixed-" + r.label() + "-x" + r.clients()), Result::op));
        return files;
    }

    private static Map<String, List<Result>> group(List<Result> results, Function<Result, String> key) {
        Map<String, List<Result>> groups = new LinkedHashMap<>();
        for (Result r : results) {
            if (r.latency().count() > 0) {
                groups.computeIfAbsent(key.apply(r) + "-" + Sizes.format(r.sizeBytes()), k -> new ArrayList<>())
                        .add(r);
            }
        }
        return groups;
    }

    private static List<Path> write(Path dir, Map<String, List<Result>> groups, Function<Result, String> name)
            throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, List<Result>> g : groups.entrySet()) {
            XYChart chart = percentileChart(g.getKey() + " latency by percentile", g.getValue(), name);
            Path file = dir.resolve(g.getKey().replaceAll("[^A-Za-z0-9-]", "_") + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }

    /** One chart, a series per result named by {@code name} (the first result of each name). */
    static XYChart percentileChart(String title, List<Result> results, Function<Result, String> name) {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title)
                .xAxisTitle("percentile (log scale of 1/(1-p): each step right is one more nine)")
                .yAxisTitle("latency (ms)").build();
        XYStyler styler = chart.getStyler();
        // Below the plot, the legend hides no line however the curves run.
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xD0D0D0));
        styler.setMarkerSize(6);
        styler.setAnnotationLineColor(Color.GRAY);
        styler.setAnnotationLineStroke(SeriesLines.DASH_DASH);
        styler.setAnnotationTextFont(styler.getAxisTickLabelsFont());
        double maxX = 2;
        double maxY = 0;
        for (Result r : results) {
            if (chart.getSeriesMap().containsKey(name.apply(r))) {
                continue;
            }
            double[][] xy = ninesCurve(r.latency());
            XYSeries s = chart.addSeries(name.apply(r), xy[0], xy[1]);
            int i = chart.getSeriesMap().size() - 1;
            s.setLineColor(COLORS[i % COLORS.length]);
            s.setMarkerColor(COLORS[i % COLORS.length]);
            s.setLineStyle(LINES[i % LINES.length]);
            s.setMarker(MARKERS[i % MARKERS.length]);
            s.setLineWidth(2f);
            maxX = Math.max(maxX, Math.ceil(xy[0][xy[0].length - 1]));
            maxY = Math.max(maxY, r.latency().maxMs());
        }
        styler.setXAxisMin(0.0).setXAxisMax(maxX).setYAxisMin(0.0);
        styler.setxAxisTickLabelsFormattingFunction(ChartWriter::ninesLabel);
        // No tick falls at log10(2) among the whole nines: the median gets a line, labelled where low
        // percentiles leave the plot empty (its top left).
        chart.addAnnotation(new AnnotationLine(MEDIAN_X, true, false));
        chart.addAnnotation(new AnnotationText("50%", MEDIAN_X + maxX * 0.025, maxY * 0.97, false));
        return chart;
    }

    static String seriesName(Result r) {
        return r.label() + ", " + r.clients() + (r.clients() == 1 ? " client" : " clients");
    }

    /**
     * The percentile curve as {x, ms} arrays with x = log10(1/(1-p)): HdrHistogram's percentile points short of
     * log10(n), then the maximum at log10(n), the nine that n samples resolve (beyond it every percentile is the
     * maximum).
     */
    static double[][] ninesCurve(LatencyStats latency) {
        double lastX = Math.log10(latency.count());
        List<double[]> points = new ArrayList<>();
        for (double[] p : latency.percentileCurve(TICKS_PER_HALF)) {
            double x = p[0] >= 100 ? Double.POSITIVE_INFINITY : Math.log10(1 / (1 - p[0] / 100));
            if (x < lastX) {
                points.add(new double[] {x, p[1]});
            }
        }
        points.add(new double[] {lastX, latency.maxMs()});
        double[][] xy = new double[2][points.size()];
        for (int i = 0; i < points.size(); i++) {
            xy[0][i] = points.get(i)[0];
            xy[1][i] = points.get(i)[1];
        }
        return xy;
    }

    /** "0%", "90%", "99%", "99.9%"... at whole nines; nothing between them. */
    static String ninesLabel(double x) {
        long nines = Math.round(x);
        if (Math.abs(x - nines) > 1e-6 || nines < 0) {
            return "";
        }
        if (nines == 0) {
            return "0%";
        }
        return nines == 1 ? "90%" : "99" + (nines > 2 ? "." + "9".repeat((int) nines - 2) : "") + "%";
    }
}
