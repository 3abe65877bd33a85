package io.shardvault.coordinator.admin.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain text table: a header row and left-aligned columns two spaces apart. */
final class Table {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
        this.header = header;
    }

    Table row(Object... cells) {
        String[] r = new String[header.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = i < cells.length && cells[i] != null ? cells[i].toString() : "";
        }
        rows.add(r);
        return this;
    }

    String render() {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, width);
        for (String[] r : rows) {
            line(out, r, width);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            l.append(cells[i]);
            if (i < cells.length - 1) {
                l.append(" ".repeat(width[i] - cells[i].length() + 2));
            }
        }
        out.append(l.toString().stripTrailing()).append('\n');
    }

    /** Bytes as B/KiB/MiB/GiB/TiB, one decimal; negative as "?". */
    static String bytes(long b) {
        if (b < 0) {
            return "?";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = b;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? b + " B" : String.format("%.1f %s", v, units[u]);
    }

    /** Milliseconds as an age (12 ms, 3.4 s, 5.0 min, 2.0 h); negative as "?". */
    static String age(long ms) {
        if (ms < 0) {
            return "?";
        }
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format("%.1f s", ms / 1000.0);
        }
        if (ms < 3_600_000) {
            return String.format("%.1f min", ms / 60_000.0);
        }
        return String.format("%.1f h", ms / 3_600_000.0);
    }

    static String count(long n) {
        return n < 0 ? "?" : Long.toString(n);
    }
}
