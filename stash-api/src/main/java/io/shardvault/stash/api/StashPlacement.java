package io.shardvault.stash.api;

import io.shardvault.common.ShardId;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * Which stash server holds the copies of pod slot {@code (vaultId, shardIndex)}: rendezvous
 * (highest random weight) hashing of the slot over the servers. Adding or removing one server
 * moves only the slots that it gains or held; every other slot stays where it was.
 *
 * <p>The weight of a server for a slot is {@code fmix64(serverHash ^ fmix64(vaultId << 8 | shardIndex))},
 * where {@code serverHash} is the 64-bit FNV-1a hash of the UTF-8 string {@code "host:port"}
 * (the address's host string as configured, never resolved) and {@code fmix64} is MurmurHash3's
 * finalizer. Equal weights, vanishingly rare, go to the lexically smaller {@code "host:port"}.
 * The result depends only on the addresses and the slot: every process and JVM agrees, whatever
 * the list's order. The formula is part of the cluster's contract: changing it moves every slot.
 *
 * <p>Immutable and thread-safe.
 */
public final class StashPlacement {
    private final InetSocketAddress[] servers;
    private final String[] names;
    private final long[] hashes;

    /** @param servers the stash servers, at least one, no duplicates */
    public StashPlacement(List<InetSocketAddress> servers) {
        Objects.requireNonNull(servers, "servers");
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("a stash placement needs at least one server");
        }
        this.servers = servers.toArray(new InetSocketAddress[0]);
        this.names = new String[this.servers.length];
        this.hashes = new long[this.servers.length];
        HashSet<String> seen = new HashSet<>();
        for (int i = 0; i < this.servers.length; i++) {
            InetSocketAddress server = Objects.requireNonNull(this.servers[i], "servers[" + i + "]");
            names[i] = server.getHostString() + ":" + server.getPort();
            if (!seen.add(names[i])) {
                throw new IllegalArgumentException("stash server listed twice: " + names[i]);
            }
            hashes[i] = fnv1a64(names[i].getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The server holding the stash copies of pod slot {@code (vaultId, shardIndex)}. */
    public InetSocketAddress serverFor(int vaultId, int shardIndex) {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        if (shardIndex < 0 || shardIndex > 255) {
            throw new IllegalArgumentException("shardIndex must be in 0..255: " + shardIndex);
        }
        long slot = fmix64(((long) vaultId << 8) | shardIndex);
        int best = 0;
        long bestWeight = fmix64(hashes[0] ^ slot);
        for (int i = 1; i < servers.length; i++) {
            long weight = fmix64(hashes[i] ^ slot);
            int cmp = Long.compareUnsigned(weight, bestWeight);
            if (cmp > 0 || (cmp == 0 && names[i].compareTo(names[best]) < 0)) {
                best = i;
                bestWeight = weight;
            }
        }
        return servers[best];
    }

    /** The servers, in the order given. */
    public List<InetSocketAddress> servers() {
        return List.of(servers);
    }

    /**
     * The partition of one stash server that holds {@code id}'s copy, out of {@code partitions}: by
     * file, so that the chunks of one file a PUT_MANY carries share one partition's group commit,
     * and files spread evenly whatever their slots. {@code fmix64} of the file id, modulo the count.
     */
    public static int partitionOf(ShardId id, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        return (int) Long.remainderUnsigned(fmix64(id.fileId()), partitions);
    }

    static long fnv1a64(byte[] bytes) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
