package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodOps;
import io.shardvault.pod.api.internal.PodWire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The pod instance's {@link PodAssignment} in its state directory, so that start-up recovery knows
 * its slots and stash servers before any coordinator is reachable.
 *
 * <pre>
 * file "assignment", replaced atomically (write assignment.tmp, fsync, rename, fsync the directory)
 *  +--------+------+------+------------+---------------------------------+------------------------+
 *  | "SVPA" | vers | rsvd | length u32 | body: the ASSIGN request header | crc32c of all before   |
 *  |  u32   | u16  | u16  |            | (PodOps.ASSIGN, PodWire)        | u32                    |
 *  +--------+------+------+------------+---------------------------------+------------------------+
 * </pre>
 * Version 1: the first. A file that fails its magic, version or CRC is damage, not a torn write
 * (the replace is atomic): {@link #read} fails, and the pod does not start, rather than recover from
 * the wrong stash or none.
 *
 * <p>Stateless. Durability: the assignment is durable when {@link #write} returns.
 */
final class AssignmentFile {
    static final String NAME = "assignment";
    static final int MAGIC = 0x53565041; // "SVPA"
    static final int CURRENT_VERSION = 1;
    static final int MIN_COMPATIBLE_VERSION = 1;
    private static final int HEADER_BYTES = 12;

    private AssignmentFile() {
    }

    static void write(Path stateDir, PodAssignment assignment) throws IOException {
        ByteBuf body = PodWire.assignHeader(assignment);
        ByteBuffer b;
        try {
            b = ByteBuffer.allocate(HEADER_BYTES + body.readableBytes() + 4);
            b.putInt(MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0).putInt(body.readableBytes());
            b.put(ByteBufUtil.getBytes(body));
        } finally {
            body.release();
        }
        b.putInt(Crc32c.of(b.array(), 0, b.position()));
        b.flip();
        StateFiles.replace(stateDir, NAME, b);
    }

    /** The persisted assignment, or empty when none was ever persisted; IOException when the file is damaged. */
    static Optional<PodAssignment> read(Path stateDir) throws IOException {
        Path path = stateDir.resolve(NAME);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (bytes.length < HEADER_BYTES + 4 || b.getInt(0) != MAGIC) {
            throw new IOException(path + " is not a pod assignment file");
        }
        int version = b.getShort(4) & 0xffff;
        if (version < MIN_COMPATIBLE_VERSION || version > CURRENT_VERSION) {
            throw new IOException(path + " has version " + version + "; this pod reads " + MIN_COMPATIBLE_VERSION
                    + ".." + CURRENT_VERSION);
        }
        int length = b.getInt(8);
        if (length < 0 || length != bytes.length - HEADER_BYTES - 4
                || b.getInt(HEADER_BYTES + length) != Crc32c.of(bytes, 0, HEADER_BYTES + length)) {
            throw new IOException(path + " is damaged (length or CRC32C mismatch): restore it, or delete it and "
                    + "let a coordinator assign the pod again once it has no unflushed shards in the stash");
        }
        try {
            return Optional.of(PodWire.decodeAssign(Unpooled.wrappedBuffer(bytes, HEADER_BYTES, length)));
        } catch (RuntimeException e) {
            throw new IOException(path + " holds a malformed assignment: " + e.getMessage(), e);
        }
    }
}
