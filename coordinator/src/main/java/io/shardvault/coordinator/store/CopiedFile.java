package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.s3.ChecksumCalculator;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * A new file copied from a range of a version (CopyObject, UploadPartCopy), with its MD5.
 *
 * @param file the new file, not yet referenced by the catalog
 * @param md5  its bytes' MD5, hex
 */
record CopiedFile(StoredFile file, String md5) {
    /**
     * Streams {@code [offset, offset+length)} of {@code source} into a new file, computing its MD5 (and, when
     * given, another checksum) on the way.
     */
    static CompletableFuture<CopiedFile> copy(DataPath data, ObjectVersion source, long offset, long length,
                                              ChecksumCalculator checksum) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            return CompletableFuture.failedFuture(e);
        }
        PartsContent content = new PartsContent(data, source.parts(), offset, length);
        ByteSource from = new ByteSource() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                return content.read().thenApply(buf -> {
                    if (buf != null) {
                        md5.update(buf.nioBuffer());
                        if (checksum != null) {
                            checksum.update(buf.nioBuffer());
                        }
                    }
                    return buf;
                });
            }
        };
        return data.write(from).whenComplete((f, failure) -> content.close())
                .thenApply(file -> new CopiedFile(file, HexFormat.of().formatHex(md5.digest())));
    }
}
