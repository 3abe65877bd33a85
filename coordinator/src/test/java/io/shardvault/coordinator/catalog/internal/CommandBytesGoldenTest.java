package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.api.AsyncApi;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;

/**
 * Golden bytes of every catalog command and reply, and of the tables they leave behind: each facade
 * method of {@link RatisCatalog} is called once (or more) against a fake Raft client that applies the
 * request to a real store, with a fixed leader time and request ids. The request bytes (op and fields,
 * without the random request id), the reply bytes and a CRC32C of each table's rows must equal
 * {@code catalog/command-golden.txt}, which the code before the catalog was split by subject wrote.
 * A changed line is a changed wire or on-disk format. Access keys are created as builds before accounts
 * created them (a free-text owner, no restrictions): an unrestricted key still stores and replies those bytes.
 *
 * <p>Run with {@code -Dcatalog.golden.write=<file>} to write the lines instead (for a new command only:
 * an existing line must never change).
 */
@Timeout(60)
class CommandBytesGoldenTest {
    private static final long T0 = 1_800_000_000_000L;
    private static final FileLayout LAYOUT = new FileLayout(2, 1, 1024);
    private static final String GOLDEN = "/catalog/command-golden.txt";

    @TempDir
    Path dir;

    private final List<String> lines = new ArrayList<>();
    private RocksCatalogStore store;
    private long index;
    private String step = "";

    private static FileRef file(long id, long size) {
        return new FileRef(1, id, size, LAYOUT, List.of(2));
    }

    private CompletableFuture<RaftClientReply> serve(Message message, boolean write) throws IOException {
        byte[] sent = message.getContent().toByteArray();
        byte[] result;
        String request;
        if (write) {
            index++;
            byte[] fields = Arrays.copyOfRange(sent, 17, sent.length);
            if ((sent[0] & 0xff) == Op.CREATE_ACCESS_KEY.code) {
                fields = fixedAccessKey(fields);
            }
            Wire.Writer entry = new Wire.Writer().u8(Codec.FORMAT).i64(T0).u8(sent[0]).i64(T0).i64(index).raw(fields);
            result = EntryApplier.apply(store, 1, index, entry.toByteArray(), () -> { });
            request = HexFormat.of().formatHex(new byte[] {sent[0]}) + HexFormat.of().formatHex(fields);
        } else {
            Wire.Reader in = new Wire.Reader(sent);
            Op op = Op.of(in.u8());
            try (RocksCatalogStore.View view = store.view()) {
                result = CommandDispatcher.read(op, in, view);
            }
            request = HexFormat.of().formatHex(sent);
        }
        lines.add(step + "\t" + request + "\t" + HexFormat.of().formatHex(result));
        return CompletableFuture.completedFuture(RaftClientReply.newBuilder().setClientId(ClientId.randomId())
                .setServerId(RaftPeerId.valueOf("p1")).setGroupId(RaftGroupId.randomId()).setCallId(index)
                .setSuccess(true).setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(result))).build());
    }

    /** Access key ids and secrets are drawn at random by the client: replaced by fixed ones of the same length. */
    private byte[] fixedAccessKey(byte[] fields) {
        Wire.Reader r = new Wire.Reader(fields);
        String id = r.str();
        String secret = r.str();
        int used = 8 + id.getBytes(StandardCharsets.UTF_8).length + secret.getBytes(StandardCharsets.UTF_8).length;
        String fixedId = "SV" + "A".repeat(id.length() - 3) + (char) ('A' + index % 26);
        return new Wire.Writer().str(fixedId).str("S".repeat(secret.length()))
                .raw(Arrays.copyOfRange(fields, used, fields.length)).toByteArray();
    }

    private RaftClient fakeClient() {
        ClassLoader loader = getClass().getClassLoader();
        InvocationHandler asyncCalls = (proxy, method, args) -> switch (method.getName()) {
            case "send" -> serve((Message) args[0], true);
            case "sendReadOnly" -> serve((Message) args[0], false);
            default -> throw new UnsupportedOperationException(method.getName());
        };
        AsyncApi async = (AsyncApi) Proxy.newProxyInstance(loader, new Class<?>[] {AsyncApi.class}, asyncCalls);
        return (RaftClient) Proxy.newProxyInstance(loader, new Class<?>[] {RaftClient.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "async" -> async;
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static <T> T call(CompletableFuture<T> f) {
        return f.join();
    }

    private void named(String name) {
        step = name;
    }

    private List<String> run(RatisCatalog c) {
        Instant later = Instant.ofEpochMilli(T0).plus(Duration.ofDays(1));
        ObjectMetadata md = new ObjectMetadata("text/plain", Map.of("cache-control", "no-cache"),
                Map.of("owner", "ünïcode"), Map.of("CRC32C", "AAAAAA=="), "FULL_OBJECT");
        named("registerVault");
        call(c.registerVault(new VaultInfo(1, LAYOUT, 1L << 40, List.of(new PodInfo(1, 0, "127.0.0.1", 7001)))));
        named("registerPod");
        call(c.registerPod(new PodInfo(1, 1, "127.0.0.1", 7002)));
        named("registerStash");
        call(c.registerStash(new StashInfo("s1", "127.0.0.1", 7100)));
        named("setPodState");
        call(c.setPodState(1, 0, PodState.DRAINING));
        named("allocateFileIds");
        call(c.allocateFileIds(1, 64));
        named("createAccessKey");
        String keyId = call(c.createLegacyAccessKey("alice", true)).accessKeyId();
        named("createAccessKey2");
        call(c.createLegacyAccessKey("bob", false));
        named("disableAccessKey");
        call(c.disableAccessKey(keyId));
        named("createBucket");
        call(c.createBucket("alpha", "AK", false, "public-read"));
        named("createLockedBucket");
        call(c.createBucket("locked", "AK", true));
        named("createBucketTaken");
        c.createBucket("alpha", "AK", false).exceptionally(t -> null).join();
        named("setBucketAcl");
        call(c.setBucketAcl("alpha", "authenticated-read"));
        named("getBucketAcl");
        call(c.getBucketAcl("alpha"));
        named("setVersioning");
        call(c.setVersioning("alpha", VersioningState.ENABLED));
        named("setDefaultRetention");
        call(c.setDefaultRetention("locked", Optional.of(RetentionMode.GOVERNANCE), 3));
        named("setBucketQuota");
        call(c.setBucketQuota("alpha", 1_000_000));
        named("putObject");
        call(c.putObjectVersion(new PutObjectVersion("alpha", "k1", 10, "\"e1\"", md,
                List.of(new FilePart(0, "e1", file(1, 10))), WriteCondition.NONE, Optional.empty(), false)));
        named("putObjectAgain");
        call(c.putObjectVersion(PutObjectVersion.of("alpha", "k1", "e2", ObjectMetadata.EMPTY, file(2, 20))));
        named("putObjectDir");
        call(c.putObjectVersion(PutObjectVersion.of("alpha", "dir/k2", "e3", md, file(3, 30))));
        named("putObjectFailedCondition");
        c.putObjectVersion(new PutObjectVersion("alpha", "k1", 10, "e9", md, List.of(new FilePart(0, "e9",
                file(9, 10))), WriteCondition.IF_NONE_MATCH_ANY, Optional.empty(), false)).exceptionally(t -> null)
                .join();
        named("putLocked");
        call(c.putObjectVersion(new PutObjectVersion("locked", "k", 40, "e4", md,
                List.of(new FilePart(0, "e4", file(4, 40))), WriteCondition.NONE,
                Optional.of(new Retention(RetentionMode.GOVERNANCE, later)), false)));
        named("getObject");
        call(c.getObjectVersion("alpha", "k1", Optional.empty()));
        named("getObjectMissing");
        c.getObjectVersion("alpha", "nope", Optional.empty()).exceptionally(t -> null).join();
        named("setObjectAcl");
        call(c.setObjectAcl("alpha", "dir/k2", Optional.empty(), "public-read"));
        named("setRetention");
        call(c.setRetention("locked", "k", Optional.empty(),
                Optional.of(new Retention(RetentionMode.COMPLIANCE, later.plus(Duration.ofDays(1)))), false));
        named("setLegalHold");
        call(c.setLegalHold("locked", "k", Optional.empty(), true));
        named("listObjects");
        call(c.listObjects(new ListObjectsQuery("alpha", "", "/", "", Optional.empty(), 1)));
        named("listObjectsToken");
        call(c.listObjects(new ListObjectsQuery("alpha", "", "", "", Optional.of("ZGlyL2sy"), 10)));
        named("listObjectVersions");
        call(c.listObjectVersions(new ListVersionsQuery("alpha", "", "", "", "", 2)));
        named("deleteObject");
        call(c.deleteObject("alpha", "k1", Optional.empty()));
        named("deleteObjects");
        call(c.deleteObjects(List.of(new DeleteObjectVersion("alpha", "dir/k2", Optional.empty(), false),
                new DeleteObjectVersion("locked", "k", Optional.empty(), false))));
        named("createUpload");
        MultipartUpload u = call(c.createMultipartUpload("alpha", "mp", md, Optional.empty(), false));
        named("putPart");
        call(c.putPart("alpha", "mp", u.uploadId(), 1, "\"p1\"", file(5, 2048), Map.of("CRC32", "AAAAAA==")));
        named("putPart2");
        call(c.putPart("alpha", "mp", u.uploadId(), 2, "p2", file(6, 100)));
        named("putPartAgain");
        call(c.putPart("alpha", "mp", u.uploadId(), 2, "p3", file(7, 100)));
        named("listParts");
        call(c.listParts("alpha", "mp", u.uploadId(), 0, 1));
        named("listUploads");
        call(c.listMultipartUploads("alpha", "", "", "", 10));
        named("completeUpload");
        call(c.completeMultipartUpload("alpha", "mp", u.uploadId(), List.of(new CompletedPart(1, "p1"),
                new CompletedPart(2, "p3")), 1024, WriteCondition.NONE, Map.of("CRC32", "BBBBBB=="), "COMPOSITE"));
        named("createUpload2");
        MultipartUpload u2 = call(c.createMultipartUpload("locked", "mp2", ObjectMetadata.EMPTY,
                Optional.of(new Retention(RetentionMode.GOVERNANCE, later)), true));
        named("putPartU2");
        call(c.putPart("locked", "mp2", u2.uploadId(), 1, "q1", file(8, 100)));
        named("abortUpload");
        call(c.abortMultipartUpload("locked", "mp2", u2.uploadId()));
        named("usage");
        call(c.usage(Optional.empty()));
        named("usageBucket");
        call(c.usage(Optional.of("alpha")));
        named("pendingDeletions");
        call(c.pendingFileDeletions(10));
        named("ackDeletions");
        call(c.ackFileDeletions(List.of(1L)));
        named("listVaults");
        call(c.listVaults());
        named("listStashes");
        call(c.listStashes());
        named("listPodStates");
        call(c.listPodStates());
        named("lookupAccessKey");
        call(c.lookupAccessKey(keyId));
        named("listAccessKeys");
        call(c.listAccessKeys());
        assertThat(lines.get(lines.size() - 1)).as("a listing of keys carries no secret (fixed ones are S...S)")
                .doesNotContain("53".repeat(16));
        named("getBucket");
        call(c.getBucket("alpha"));
        named("listBuckets");
        call(c.listBuckets());
        named("createBucketGamma");
        call(c.createBucket("gamma", "AK", false));
        named("deleteBucket");
        call(c.deleteBucket("gamma"));
        named("deleteBucketMissing");
        c.deleteBucket("gamma").exceptionally(t -> null).join();
        // Added with REGISTER_CLUSTER_MAP (op 36), last so that every line before stays as the old code wrote it.
        named("registerClusterMap");
        List<VaultInfo> held = new ArrayList<>(call(c.listVaults()));
        held.add(new VaultInfo(2, LAYOUT, Long.MAX_VALUE, List.of(new PodInfo(2, 0, "127.0.0.1", 7201),
                new PodInfo(2, 1, "127.0.0.1", 7202), new PodInfo(2, 2, "127.0.0.1", 7203))));
        List<StashInfo> stashes = call(c.listStashes());
        call(c.registerClusterMap(held, stashes));
        named("registerClusterMapAgain");
        call(c.registerClusterMap(held, stashes));
        named("registerClusterMapConflict");
        c.registerClusterMap(held.subList(1, held.size()), stashes).exceptionally(t -> null).join();
        // Added with GET_BUCKET_VERSION (op 90), last for the same reason; a read, so no table changes.
        named("getBucketVersion");
        call(c.bucketVersion("alpha", "mp", Optional.empty()));
        named("getBucketVersionMissing");
        call(c.bucketVersion("alpha", "nope", Optional.empty()));
        named("getBucketVersionNoBucket");
        c.bucketVersion("gamma", "k", Optional.empty()).exceptionally(t -> null).join();
        return lines;
    }

    /** One line per table the golden file names: a CRC32C over its rows, in order. */
    private String tableLine(RocksCatalogStore.View view, Table t) {
        CRC32C crc = new CRC32C();
        int rows = 0;
        try (RocksIterator it = view.iterator(t)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                crc.update(new Wire.Writer().bytes(it.key()).bytes(it.value()).toByteArray());
                rows++;
            }
        }
        return "table " + t.cfName + "\t" + rows + "\t" + Long.toHexString(crc.getValue());
    }

    @Test
    void everyCommandAndReplyAndTableIsByteForByteAsBefore() throws Exception {
        List<String> expected = golden();
        try (RocksCatalogStore s = RocksCatalogStore.open(dir.resolve("db"));
             RatisCatalog catalog = new RatisCatalog(fakeClient(), Optional.empty(), Duration.ofSeconds(10),
                     new SimpleMeterRegistry(), Optional.empty())) {
            store = s;
            List<String> actual = new ArrayList<>(run(catalog));
            try (RocksCatalogStore.View view = s.view()) {
                for (String line : expected.isEmpty() ? allTables() : expected) {
                    if (line.startsWith("table ")) {
                        String name = line.substring(6, line.indexOf('\t'));
                        actual.add(tableLine(view, Arrays.stream(Table.values())
                                .filter(t -> t.cfName.equals(name)).findFirst().orElseThrow()));
                    }
                }
            }
            String target = System.getProperty("catalog.golden.write");
            if (target != null) {
                Files.write(Path.of(target), actual);
                return;
            }
            assertThat(actual).hasSameSizeAs(expected);
            for (int i = 0; i < actual.size(); i++) {
                assertThat(actual.get(i)).as("golden line %d", i + 1).isEqualTo(expected.get(i));
            }
        }
    }

    private static List<String> allTables() {
        return Arrays.stream(Table.values()).map(t -> "table " + t.cfName + "\t").toList();
    }

    private static List<String> golden() throws IOException {
        try (InputStream in = CommandBytesGoldenTest.class.getResourceAsStream(GOLDEN)) {
            if (in == null) {
                return List.of();
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
