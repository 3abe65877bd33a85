package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Random puts, deletes and versioning changes applied to the real store and to a plain in-memory
 * model; after every few operations, random listings (every combination of prefix, delimiter,
 * markers and max-keys) must match the model, and paging with the returned markers must yield the
 * unpaged listing exactly.
 */
@Timeout(180)
class ListingModelTest {
    private static final Logger LOG = LoggerFactory.getLogger(ListingModelTest.class);
    private static final Comparator<String> UTF8 = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    // Multi-byte characters on both sides of the UTF-16 surrogate range: UTF-8 order differs from String order.
    private static final String[] PARTS = {"a", "b", "/", "a/", "b/c", "\uE000", "\uD83D\uDE00", "z", "ab"};
    private static final FileLayout LAYOUT = new FileLayout(2, 1, 1024);

    @TempDir
    Path dir;

    record MV(String versionId, boolean marker, boolean nullVersion, long seq) {
    }

    private final TreeMap<String, List<MV>> model = new TreeMap<>(UTF8);
    private VersioningState versioning = VersioningState.UNVERSIONED;
    private long index;

    @Test
    void listingsMatchTheModel() throws Exception {
        long seed = Long.getLong("catalog.test.seed", System.nanoTime());
        LOG.info("ListingModelTest seed {} (rerun with -Dcatalog.test.seed={})", seed, seed);
        Random rnd = new Random(seed);
        try (RocksCatalogStore store = RocksCatalogStore.open(dir.resolve("db"))) {
            write(store, e -> Buckets.createBucket(e, "bkt", "AK", false, "private"));
            int checks = 0;
            for (int op = 0; op < 600; op++) {
                applyRandom(store, rnd);
                if (op % 15 == 14) {
                    for (int q = 0; q < 12; q++) {
                        checkObjects(store, rnd);
                        checkVersions(store, rnd);
                        checks++;
                    }
                }
            }
            LOG.info("{} listing checks passed", checks);
        }
    }

    interface Write<T> {
        T apply(Entry e) throws CatalogException;
    }

    private <T> T write(RocksCatalogStore store, Write<T> w) throws Exception {
        index++;
        try (RocksCatalogStore.Txn txn = store.begin()) {
            T out = w.apply(new Entry(txn, index, Instant.ofEpochSecond(1_700_000_000L + index)));
            txn.commit(1, index);
            return out;
        }
    }

    private static String randomKey(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            sb.append(PARTS[rnd.nextInt(PARTS.length)]);
        }
        return sb.toString();
    }

    private void applyRandom(RocksCatalogStore store, Random rnd) throws Exception {
        int r = rnd.nextInt(100);
        if (r < 5) {
            VersioningState s = rnd.nextBoolean() ? VersioningState.ENABLED : VersioningState.SUSPENDED;
            write(store, e -> Buckets.setVersioning(e, "bkt", s));
            versioning = s;
        } else if (r < 70) {
            String key = randomKey(rnd);
            FileRef f = new FileRef(1, index + 1, 1, LAYOUT, List.of());
            write(store, e -> ObjectVersions.putObject(e, PutObjectVersion.of("bkt", key, "e", ObjectMetadata.EMPTY, f)));
            List<MV> vs = model.computeIfAbsent(key, k -> new ArrayList<>());
            boolean enabled = versioning == VersioningState.ENABLED;
            if (!enabled) {
                vs.removeIf(MV::nullVersion);
            }
            vs.add(0, new MV(enabled ? Keys.versionId(index) : "null", false, !enabled, index));
        } else if (r < 88 || model.isEmpty()) {
            String key = model.isEmpty() || rnd.nextInt(4) == 0 ? randomKey(rnd)
                    : new ArrayList<>(model.keySet()).get(rnd.nextInt(model.size()));
            write(store, e -> ObjectVersions.deleteObject(e, new DeleteObjectVersion("bkt", key, Optional.empty(),
                    false)));
            List<MV> vs = model.computeIfAbsent(key, k -> new ArrayList<>());
            switch (versioning) {
                case ENABLED -> vs.add(0, new MV(Keys.versionId(index), true, false, index));
                case SUSPENDED -> {
                    vs.removeIf(MV::nullVersion);
                    vs.add(0, new MV("null", true, true, index));
                }
                default -> vs.removeIf(MV::nullVersion);
            }
            if (vs.isEmpty()) {
                model.remove(key);
            }
        } else {
            String key = new ArrayList<>(model.keySet()).get(rnd.nextInt(model.size()));
            List<MV> vs = model.get(key);
            MV victim = vs.get(rnd.nextInt(vs.size()));
            write(store, e -> ObjectVersions.deleteObject(e, new DeleteObjectVersion("bkt", key,
                    Optional.of(victim.versionId()), false)));
            vs.remove(victim);
            if (vs.isEmpty()) {
                model.remove(key);
            }
        }
    }

    private String randomPrefix(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> "";
            case 1 -> PARTS[rnd.nextInt(PARTS.length)];
            case 2 -> model.isEmpty() ? "" : prefixOf(new ArrayList<>(model.keySet()).get(rnd.nextInt(model.size())), rnd);
            default -> randomKey(rnd);
        };
    }

    private static String prefixOf(String key, Random rnd) {
        int cps = key.codePointCount(0, key.length());
        return key.substring(0, key.offsetByCodePoints(0, rnd.nextInt(cps + 1)));
    }

    private String randomMarker(Random rnd) {
        return switch (rnd.nextInt(3)) {
            case 0 -> "";
            case 1 -> model.isEmpty() ? "" : new ArrayList<>(model.keySet()).get(rnd.nextInt(model.size()));
            default -> randomKey(rnd);
        };
    }

    private static String commonPrefix(String key, String prefix, String delimiter) {
        if (delimiter.isEmpty()) {
            return null;
        }
        int i = key.indexOf(delimiter, prefix.length());
        return i < 0 ? null : key.substring(0, i + delimiter.length());
    }

    /** An entry of a listing: a key (with its version) or a common prefix. */
    record Item(String name, String versionId, boolean prefix, boolean latest) {
    }

    private List<Item> modelObjects(String prefix, String delimiter, String marker) {
        List<Item> out = new ArrayList<>();
        for (var en : model.entrySet()) {
            String key = en.getKey();
            if (!key.startsWith(prefix) || en.getValue().get(0).marker()) {
                continue;
            }
            String cp = commonPrefix(key, prefix, delimiter);
            Item item = cp != null ? new Item(cp, "", true, false) : new Item(key, en.getValue().get(0).versionId(), false, true);
            if (!marker.isEmpty() && UTF8.compare(item.name(), marker) <= 0) {
                continue;
            }
            if (!out.isEmpty() && out.get(out.size() - 1).equals(item)) {
                continue;
            }
            out.add(item);
        }
        return out;
    }

    private List<Item> modelVersions(String prefix, String delimiter, String keyMarker, String versionMarker) {
        List<Item> out = new ArrayList<>();
        for (var en : model.entrySet()) {
            String key = en.getKey();
            if (!key.startsWith(prefix)) {
                continue;
            }
            String cp = commonPrefix(key, prefix, delimiter);
            if (cp != null) {
                Item item = new Item(cp, "", true, false);
                if ((keyMarker.isEmpty() || UTF8.compare(cp, keyMarker) > 0)
                        && (out.isEmpty() || !out.get(out.size() - 1).equals(item))) {
                    out.add(item);
                }
                continue;
            }
            List<MV> vs = en.getValue();
            int from = 0;
            if (!keyMarker.isEmpty()) {
                int c = UTF8.compare(key, keyMarker);
                if (c < 0) {
                    continue;
                }
                if (c == 0) {
                    int at = -1;
                    for (int i = 0; i < vs.size(); i++) {
                        if (!versionMarker.isEmpty() && vs.get(i).versionId().equals(versionMarker)) {
                            at = i;
                        }
                    }
                    if (at < 0) {
                        continue;
                    }
                    from = at + 1;
                }
            }
            for (int i = from; i < vs.size(); i++) {
                out.add(new Item(key, vs.get(i).versionId(), false, i == 0));
            }
        }
        return out;
    }

    private static List<Item> items(ObjectListing l) {
        List<Item> out = new ArrayList<>();
        l.objects().forEach(o -> out.add(new Item(o.key(), o.versionId(), false, true)));
        l.commonPrefixes().forEach(p -> out.add(new Item(p, "", true, false)));
        out.sort(Comparator.comparing(Item::name, UTF8));
        return out;
    }

    private static List<Item> items(VersionListing l) {
        List<Item> out = new ArrayList<>();
        for (ObjectVersion v : l.versions()) {
            out.add(new Item(v.key(), v.versionId(), false, v.latest()));
        }
        // Versions of one key stay in their (newest first) order: a stable sort by name keeps it.
        l.commonPrefixes().forEach(p -> out.add(new Item(p, "", true, false)));
        out.sort(Comparator.comparing(Item::name, UTF8));
        return out;
    }

    private void checkObjects(RocksCatalogStore store, Random rnd) throws Exception {
        String prefix = randomPrefix(rnd);
        String delimiter = rnd.nextInt(3) == 0 ? "" : (rnd.nextBoolean() ? "/" : "b");
        String marker = randomMarker(rnd);
        int maxKeys = rnd.nextInt(8);
        List<Item> expected = modelObjects(prefix, delimiter, marker);
        try (RocksCatalogStore.View view = store.view()) {
            ObjectListing page = ObjectListings.listObjects(view,
                    new ListObjectsQuery("bkt", prefix, delimiter, marker, Optional.empty(), maxKeys));
            String what = "prefix='" + prefix + "' delim='" + delimiter + "' marker='" + marker + "' max=" + maxKeys;
            assertThat(items(page)).as(what).isEqualTo(expected.subList(0, Math.min(maxKeys, expected.size())));
            assertThat(page.truncated()).as(what).isEqualTo(expected.size() > maxKeys);
            // Page through with continuation tokens (v2) and with NextMarker (v1): both yield everything once.
            int pageSize = 1 + rnd.nextInt(4);
            for (boolean v2 : new boolean[] {true, false}) {
                List<Item> all = new ArrayList<>();
                Optional<String> token = Optional.empty();
                String m = marker;
                for (int guard = 0; guard < 10_000; guard++) {
                    ObjectListing p = ObjectListings.listObjects(view,
                            new ListObjectsQuery("bkt", prefix, delimiter, m, v2 ? token : Optional.empty(), pageSize));
                    all.addAll(items(p));
                    if (!p.truncated()) {
                        break;
                    }
                    token = p.nextContinuationToken();
                    if (!v2) {
                        m = p.nextMarker().orElseThrow();
                    }
                }
                assertThat(all).as("paged " + (v2 ? "v2 " : "v1 ") + what).isEqualTo(expected);
            }
        }
    }

    private void checkVersions(RocksCatalogStore store, Random rnd) throws Exception {
        String prefix = randomPrefix(rnd);
        String delimiter = rnd.nextInt(3) == 0 ? "" : (rnd.nextBoolean() ? "/" : "b");
        String keyMarker = randomMarker(rnd);
        String versionMarker = "";
        if (!keyMarker.isEmpty() && model.containsKey(keyMarker) && rnd.nextBoolean()) {
            List<MV> vs = model.get(keyMarker);
            versionMarker = vs.get(rnd.nextInt(vs.size())).versionId();
        }
        int maxKeys = rnd.nextInt(8);
        List<Item> expected = modelVersions(prefix, delimiter, keyMarker, versionMarker);
        try (RocksCatalogStore.View view = store.view()) {
            String what = "prefix='" + prefix + "' delim='" + delimiter + "' keyMarker='" + keyMarker
                    + "' versionMarker='" + versionMarker + "' max=" + maxKeys;
            VersionListing page = ObjectListings.listVersions(view,
                    new ListVersionsQuery("bkt", prefix, delimiter, keyMarker, versionMarker, maxKeys));
            assertThat(items(page)).as(what).isEqualTo(expected.subList(0, Math.min(maxKeys, expected.size())));
            assertThat(page.truncated()).as(what).isEqualTo(expected.size() > maxKeys);
            List<Item> all = new ArrayList<>();
            String km = keyMarker;
            String vm = versionMarker;
            int pageSize = 1 + rnd.nextInt(4);
            for (int guard = 0; guard < 10_000; guard++) {
                VersionListing p = ObjectListings.listVersions(view,
                        new ListVersionsQuery("bkt", prefix, delimiter, km, vm, pageSize));
                all.addAll(items(p));
                if (!p.truncated()) {
                    break;
                }
                km = p.nextKeyMarker();
                vm = p.nextVersionIdMarker();
            }
            assertThat(all).as("paged " + what).isEqualTo(expected);
        }
    }
}
