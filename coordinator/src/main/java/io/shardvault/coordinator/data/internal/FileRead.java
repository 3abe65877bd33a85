package io.shardvault.coordinator.data.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.coordinator.data.FileContent;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * A byte range of a file as a stream of per-stripe pieces: stripe reads run at most
 * {@code data.read.aheadStripes} ahead of the consumer, so memory stays at a few stripes. For a file
 * cut with stripes larger than its vault's (a large file) the window is counted in the bytes of
 * the vault's stripes, at least one of the file's ({@code DataPathConfig.readWindowStripes}).
 *
 * <p>Thread-safe (one {@link #read()} at a time is the contract; state is still guarded).
 */
final class FileRead implements FileContent {
    private final ShardDataPath ctx;
    private final Vault vault;
    private final StoredFile file;
    private final VaultLayout layout;
    private final long offset;
    private final long length;
    private final long lastStripe;
    private final int window;
    private final Deque<CompletableFuture<ByteBuf>> ahead = new ArrayDeque<>();
    private long nextToLaunch;
    private long delivered;
    private boolean closed;

    FileRead(ShardDataPath ctx, Vault vault, StoredFile file, long offset, long length) {
        this.ctx = ctx;
        this.vault = vault;
        this.file = file;
        this.layout = file.layout();
        this.window = ctx.config.readWindowStripes(vault.layout(), layout);
        this.offset = offset;
        this.length = length;
        long stripeBytes = layout.stripeBytes();
        this.nextToLaunch = length == 0 ? 0 : offset / stripeBytes;
        this.lastStripe = length == 0 ? -1 : (offset + length - 1) / stripeBytes;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public synchronized CompletableFuture<ByteBuf> read() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("content closed"));
        }
        topUp();
        CompletableFuture<ByteBuf> next = ahead.poll();
        if (next == null) {
            return CompletableFuture.completedFuture(null);
        }
        topUp();
        return next.thenApply(buf -> {
            synchronized (this) {
                delivered += buf.readableBytes();
            }
            return buf;
        });
    }

    private void topUp() {
        while (ahead.size() < window && nextToLaunch <= lastStripe) {
            long s = nextToLaunch++;
            long stripeStart = s * layout.stripeBytes();
            int from = (int) Math.max(0, offset - stripeStart);
            int to = (int) Math.min(layout.stripeLength(file.size(), s), offset + length - stripeStart);
            ahead.add(new StripeRead(ctx, vault, file, s, from, to).start());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (CompletableFuture<ByteBuf> f : ahead) {
            f.whenComplete((buf, failure) -> {
                if (buf != null) {
                    buf.release();
                }
            });
        }
        ahead.clear();
    }
}
