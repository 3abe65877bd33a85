package io.shardvault.it.chaos;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The operations of one chaos run, in the order they completed, written as they complete to {@code
 * history.jsonl} (one {@link Op#toJson()} a line) so a run cut short still leaves what it did. Thread-safe.
 */
public final class History implements AutoCloseable {
    private final long start = System.nanoTime();
    private final Path file;
    private final BufferedWriter out;
    private final List<Op> ops = new ArrayList<>();

    public History(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        this.file = file;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** Now, on this history's clock. */
    public long now() {
        return System.nanoTime() - start;
    }

    public synchronized void record(Op op) {
        ops.add(op);
        try {
            out.write(op.toJson());
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }

    public synchronized List<Op> ops() {
        return List.copyOf(ops);
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
