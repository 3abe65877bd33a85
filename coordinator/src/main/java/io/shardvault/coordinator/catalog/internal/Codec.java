package io.shardvault.coordinator.catalog.internal;

import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The encodings every catalog subject shares: lists, maps, times, files and their layout, metadata,
 * retention, write conditions, optional strings. Each subject encodes its own records and its commands'
 * fields and replies in its own file, with these. One encoding serves the Raft log, results and RocksDB
 * values, so a record written to the log is stored byte for byte as applied. Field order is fixed; a
 * change of any record's layout bumps {@link #FORMAT}.
 */
final class Codec {
    /** The encoding version carried by every log entry and stored record. */
    static final int FORMAT = 1;

    private Codec() {
    }

    static <T> void list(Wire.Writer w, List<T> items, BiConsumer<Wire.Writer, T> each) {
        w.i32(items.size());
        for (T t : items) {
            each.accept(w, t);
        }
    }

    static <T> List<T> list(Wire.Reader r, Function<Wire.Reader, T> each) {
        int n = r.i32();
        if (n < 0 || n > 10_000_000) {
            throw new IllegalArgumentException("bad list length " + n);
        }
        List<T> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(each.apply(r));
        }
        return out;
    }

    static void map(Wire.Writer w, Map<String, String> m) {
        w.i32(m.size());
        m.forEach((k, v) -> w.str(k).str(v));
    }

    static Map<String, String> map(Wire.Reader r) {
        int n = r.i32();
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(r.str(), r.str());
        }
        return m;
    }

    static void instant(Wire.Writer w, Instant t) {
        w.i64(t.toEpochMilli());
    }

    static Instant instant(Wire.Reader r) {
        return Instant.ofEpochMilli(r.i64());
    }

    static void layout(Wire.Writer w, FileLayout l) {
        w.u8(l.dataShards()).u8(l.parityShards()).i32(l.chunkBytes());
    }

    static FileLayout layout(Wire.Reader r) {
        return new FileLayout(r.u8(), r.u8(), r.i32());
    }

    static void fileRef(Wire.Writer w, FileRef f) {
        w.i32(f.vaultId()).i64(f.fileId()).i64(f.size());
        layout(w, f.layout());
        list(w, f.missingShards(), (ww, i) -> ww.u8(i));
    }

    static FileRef fileRef(Wire.Reader r) {
        return new FileRef(r.i32(), r.i64(), r.i64(), layout(r), list(r, Wire.Reader::u8));
    }

    static void filePart(Wire.Writer w, FilePart p) {
        w.u16(p.partNumber()).str(p.etag());
        fileRef(w, p.file());
    }

    static FilePart filePart(Wire.Reader r) {
        return new FilePart(r.u16(), r.str(), fileRef(r));
    }

    static void metadata(Wire.Writer w, ObjectMetadata m) {
        w.str(m.contentType());
        map(w, m.system());
        map(w, m.user());
        map(w, m.checksums());
        w.str(m.checksumType());
    }

    static ObjectMetadata metadata(Wire.Reader r) {
        return new ObjectMetadata(r.str(), map(r), map(r), map(r), r.str());
    }

    static void retention(Wire.Writer w, Optional<Retention> ret) {
        if (ret.isEmpty()) {
            w.u8(0);
        } else {
            w.u8(1 + ret.get().mode().ordinal());
            instant(w, ret.get().retainUntil());
        }
    }

    static Optional<Retention> retention(Wire.Reader r) {
        int m = r.u8();
        if (m == 0) {
            return Optional.empty();
        }
        return Optional.of(new Retention(RetentionMode.values()[m - 1], instant(r)));
    }

    static void condition(Wire.Writer w, WriteCondition c) {
        w.u8(c.kind().ordinal()).str(c.etag());
    }

    static WriteCondition condition(Wire.Reader r) {
        return new WriteCondition(WriteCondition.Kind.values()[r.u8()], r.str());
    }

    static Optional<String> optional(Wire.Reader in) {
        boolean present = in.bool();
        String s = in.str();
        return present ? Optional.of(s) : Optional.empty();
    }

    static void optional(Wire.Writer out, Optional<String> s) {
        out.bool(s.isPresent()).str(s.orElse(""));
    }
}
