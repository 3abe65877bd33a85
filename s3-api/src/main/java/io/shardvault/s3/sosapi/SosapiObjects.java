package io.shardvault.s3.sosapi;

import io.shardvault.common.ErrorCode;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The SOSAPI documents of one bucket, rendered on demand (never stored).
 *
 * <ul>
 *   <li>{@value #SYSTEM_XML}: {@code SystemInfo} with {@code ProtocolVersion} "1.0", the
 *       {@code ModelName}, {@code ProtocolCapabilities} ({@code CapacityInfo} when capacity is
 *       served; {@code UploadSessions} and {@code IAMSTS} false: this cluster has neither) and,
 *       when configured, {@code SystemRecommendations}. Its Last-Modified is the bucket's creation
 *       time, so every coordinator answers it with the same ETag.</li>
 *   <li>{@value #CAPACITY_XML}: {@code CapacityInfo} with {@code Capacity}, {@code Available} and
 *       {@code Used} in bytes from {@link ObjectStore#bucketCapacity}; Last-Modified is now. It
 *       exists only when the store reports capacity and {@link SosapiConfig#capacityInfo()}.</li>
 * </ul>
 * Both are {@code application/xml}, their ETag the hex MD5 of their bytes, their version the null
 * version. Thread-safe and stateless: every read asks the store again.
 */
public final class SosapiObjects {
    /** The folder SOSAPI defines; its GUID is fixed by the protocol. */
    public static final String PREFIX = ".system-d26a9498-cb7c-4a87-a44a-8ae204f5ba6c/";
    public static final String SYSTEM_XML = PREFIX + "system.xml";
    public static final String CAPACITY_XML = PREFIX + "capacity.xml";
    public static final String CONTENT_TYPE = "application/xml";
    /** The only protocol version SOSAPI defines. */
    static final String PROTOCOL_VERSION = "1.0";

    private final SosapiConfig config;
    private final ObjectStore store;
    private final Clock clock;

    public SosapiObjects(SosapiConfig config, ObjectStore store, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether {@code key} names one of the virtual objects (whether or not this server serves it). */
    public static boolean isReserved(String key) {
        return SYSTEM_XML.equals(key) || CAPACITY_XML.equals(key);
    }

    /** Whether the virtual objects exist at all. */
    public boolean enabled() {
        return config.enabled();
    }

    /** The keys this server serves in every bucket, in listing order (capacity.xml sorts first). */
    public List<String> keys() {
        if (!config.enabled()) {
            return List.of();
        }
        return servesCapacity() ? List.of(CAPACITY_XML, SYSTEM_XML) : List.of(SYSTEM_XML);
    }

    private boolean servesCapacity() {
        return config.capacityInfo() && store.reportsCapacity();
    }

    /**
     * Renders one virtual object of a bucket: {@code NO_SUCH_BUCKET} / {@code ACCESS_DENIED} as the
     * store's {@code headBucket}, {@code NO_SUCH_KEY} for a key this server does not serve.
     */
    public CompletableFuture<VirtualObject> read(Caller caller, String bucket, String key) {
        if (!keys().contains(key)) {
            return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.NO_SUCH_KEY, key));
        }
        if (key.equals(SYSTEM_XML)) {
            return store.headBucket(caller, bucket).thenApply(b -> object(key, systemXml(), b.creationDate()));
        }
        return store.headBucket(caller, bucket).thenCompose(b -> store.bucketCapacity(caller, bucket))
                .thenApply(c -> object(key, capacityXml(c), clock.instant().truncatedTo(ChronoUnit.SECONDS)));
    }

    /** Renders every virtual object of a bucket that {@code wanted} keeps, in key order. */
    CompletableFuture<List<VirtualObject>> readAll(Caller caller, String bucket, List<String> wanted) {
        List<CompletableFuture<VirtualObject>> reads = new ArrayList<>();
        for (String key : wanted) {
            reads.add(read(caller, bucket, key));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(v -> reads.stream().map(CompletableFuture::join).toList());
    }

    byte[] systemXml() {
        XmlWriter xml = XmlWriter.plainDocument("SystemInfo")
                // SOSAPI's document shows both values in double quotes, and Veeam reads them that way.
                .element("ProtocolVersion", '"' + PROTOCOL_VERSION + '"')
                .element("ModelName", '"' + config.modelName() + '"')
                .start("ProtocolCapabilities")
                .element("CapacityInfo", servesCapacity())
                .element("UploadSessions", false)
                .element("IAMSTS", false)
                .end();
        if (config.recommendations()) {
            xml.start("SystemRecommendations")
                    .element("S3ConcurrentTaskLimit", config.s3ConcurrentTaskLimit())
                    .element("S3MultiObjectDeleteLimit", config.s3MultiObjectDeleteLimit())
                    .element("StorageConcurrentTasksLimit", config.storageConcurrentTasksLimit())
                    .element("KbBlockSize", config.kbBlockSize())
                    .end();
        }
        return xml.toBytes();
    }

    static byte[] capacityXml(BucketCapacity c) {
        return XmlWriter.plainDocument("CapacityInfo")
                .element("Capacity", c.capacityBytes())
                .element("Available", c.availableBytes())
                .element("Used", c.usedBytes())
                .toBytes();
    }

    private static VirtualObject object(String key, byte[] content, Instant lastModified) {
        ObjectMetadata metadata = new ObjectMetadata(CONTENT_TYPE, null, null, null, null, null, Map.of());
        ObjectInfo info = new ObjectInfo(key, null, content.length, md5Hex(content), lastModified, metadata, null, 0,
                ObjectLock.NONE, false);
        return new VirtualObject(info, content);
    }

    private static String md5Hex(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has MD5", e);
        }
    }
}
