package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/** Helpers shared by the data-path tests. Stateless. */
public final class DataPathTesting {
    static final Duration WAIT = Duration.ofSeconds(120);

    private DataPathTesting() {
    }

    static byte[] randomBytes(Random random, int size) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        return data;
    }

    static StoredFile write(DataPath path, byte[] data) throws Exception {
        return unwrap(() -> path.write(ByteSources.of(data)).get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }

    /** Writes {@code data} from a source that does not tell its length (-1), in pieces of up to 100,000 bytes. */
    static StoredFile writeUnknownLength(DataPath path, byte[] data) throws Exception {
        ByteSource source = new ByteSource() {
            private int at;

            @Override
            public long length() {
                return -1;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (at == data.length) {
                    return CompletableFuture.completedFuture(null);
                }
                int n = Math.min(100_000, data.length - at);
                ByteBuf piece = Unpooled.copiedBuffer(data, at, n);
                at += n;
                return CompletableFuture.completedFuture(piece);
            }
        };
        return unwrap(() -> path.write(source).get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }

    public static byte[] read(DataPath path, StoredFile file, long offset, long length) throws Exception {
        try (FileContent content = path.read(file, offset, length)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int pieces = 0; pieces < 1_000_000; pieces++) {
                ByteBuf buf = unwrap(() -> content.read().get(WAIT.toSeconds(), TimeUnit.SECONDS));
                if (buf == null) {
                    break;
                }
                try {
                    buf.readBytes(out, buf.readableBytes());
                } finally {
                    buf.release();
                }
            }
            return out.toByteArray();
        }
    }

    public static byte[] read(DataPath path, StoredFile file) throws Exception {
        return read(path, file, 0, file.size());
    }

    interface Call<T> {
        T call() throws Exception;
    }

    /** Rethrows the cause of a future's failure, so tests assert on the real exception. */
    static <T> T unwrap(Call<T> call) throws Exception {
        try {
            return call.call();
        } catch (java.util.concurrent.ExecutionException | CompletionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
