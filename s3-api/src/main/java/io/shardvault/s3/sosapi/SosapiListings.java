package io.shardvault.s3.sosapi;

import io.shardvault.s3.Caller;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.VersionSummary;
import io.shardvault.s3.VersionsPage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Merges the virtual objects into a listing page the store returned for the same request.
 *
 * <p>A virtual key the request covers (it has the prefix, sorts after the markers) is rolled up by
 * the delimiter like any key, then placed in UTF-8 binary order among the store's entries. When the
 * store's page was truncated, only virtual entries that sort before its resume point join it (the
 * rest belong to a later page, whose request will cover them). When the merge overflows
 * {@code maxKeys}, the page is cut and its resume point becomes its new last entry; a cut right
 * after a virtual key resumes after every version of that key (it has only the null version). A
 * stored key equal to a virtual one (written before SOSAPI existed) is hidden behind it. Stateless.
 */
public final class SosapiListings {
    private static final Comparator<String> UTF8 = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private SosapiListings() {
    }

    /** One entry of a merged page: a key's summary, a version, or a common prefix. */
    private record Entry(String name, boolean prefix, Object summary) {
    }

    /** ListObjects (v1 and v2). */
    public static CompletableFuture<ListObjectsPage> merge(SosapiObjects sosapi, Caller caller,
                                                           ListObjectsRequest request, ListObjectsPage page) {
        String resume = page.truncated() ? page.nextAfter() : null;
        List<String> covered = covered(sosapi, request.prefix(), request.delimiter(), request.after(), resume);
        if (covered.isEmpty() || request.maxKeys() == 0) {
            return CompletableFuture.completedFuture(page);
        }
        return sosapi.readAll(caller, request.bucket(), keysOnly(covered))
                .thenApply(objects -> {
                    List<Entry> entries = new ArrayList<>();
                    for (ObjectSummary o : page.objects()) {
                        if (!SosapiObjects.isReserved(o.key())) {
                            entries.add(new Entry(o.key(), false, o));
                        }
                    }
                    for (String p : page.commonPrefixes()) {
                        entries.add(new Entry(p, true, null));
                    }
                    for (VirtualObject v : objects) {
                        entries.add(new Entry(v.info().key(), false, new ObjectSummary(v.info().key(),
                                v.info().size(), v.info().etag(), v.info().lastModified(), null, null, null)));
                    }
                    addPrefixes(entries, covered, page.commonPrefixes());
                    entries.sort(Comparator.comparing(Entry::name, UTF8));
                    boolean truncated = page.truncated();
                    String nextAfter = page.nextAfter();
                    if (entries.size() > request.maxKeys()) {
                        entries = entries.subList(0, request.maxKeys());
                        truncated = true;
                        nextAfter = entries.get(entries.size() - 1).name();
                    }
                    List<ObjectSummary> keys = new ArrayList<>();
                    List<String> prefixes = new ArrayList<>();
                    for (Entry e : entries) {
                        if (e.prefix()) {
                            prefixes.add(e.name());
                        } else {
                            keys.add((ObjectSummary) e.summary());
                        }
                    }
                    return new ListObjectsPage(keys, prefixes, truncated, truncated ? nextAfter : null);
                });
    }

    /** ListObjectVersions. */
    public static CompletableFuture<VersionsPage> merge(SosapiObjects sosapi, Caller caller,
                                                        ListVersionsRequest request, VersionsPage page) {
        String resume = page.truncated() ? page.nextKeyMarker() : null;
        List<String> covered = covered(sosapi, request.prefix(), request.delimiter(), request.keyMarker(), resume);
        if (covered.isEmpty() || request.maxKeys() == 0) {
            return CompletableFuture.completedFuture(page);
        }
        return sosapi.readAll(caller, request.bucket(), keysOnly(covered))
                .thenApply(objects -> {
                    // Versions of one key stay together and in the store's order: the sort is stable.
                    List<Entry> entries = new ArrayList<>();
                    for (VersionSummary v : page.versions()) {
                        if (!SosapiObjects.isReserved(v.key())) {
                            entries.add(new Entry(v.key(), false, v));
                        }
                    }
                    for (String p : page.commonPrefixes()) {
                        entries.add(new Entry(p, true, null));
                    }
                    for (VirtualObject o : objects) {
                        entries.add(new Entry(o.info().key(), false, new VersionSummary(o.info().key(), "null", true,
                                false, o.info().size(), o.info().etag(), o.info().lastModified(), null)));
                    }
                    addPrefixes(entries, covered, page.commonPrefixes());
                    entries.sort(Comparator.comparing(Entry::name, UTF8));
                    boolean truncated = page.truncated();
                    String nextKey = page.nextKeyMarker();
                    String nextVersion = page.nextVersionIdMarker();
                    if (entries.size() > request.maxKeys()) {
                        entries = entries.subList(0, request.maxKeys());
                        truncated = true;
                        Entry last = entries.get(entries.size() - 1);
                        nextKey = last.name();
                        nextVersion = last.prefix() || SosapiObjects.isReserved(last.name()) ? null
                                : ((VersionSummary) last.summary()).versionId();
                    }
                    List<VersionSummary> versions = new ArrayList<>();
                    List<String> prefixes = new ArrayList<>();
                    for (Entry e : entries) {
                        if (e.prefix()) {
                            prefixes.add(e.name());
                        } else {
                            versions.add((VersionSummary) e.summary());
                        }
                    }
                    return new VersionsPage(versions, prefixes, truncated, truncated ? nextKey : null,
                            truncated ? nextVersion : null);
                });
    }

    /**
     * The entry names (keys or rolled-up prefixes) of the virtual objects that a request covers and
     * that belong on this page: after the markers, before the store page's resume point.
     */
    static List<String> covered(SosapiObjects sosapi, String prefix, String delimiter, String after,
                                String resume) {
        List<String> names = new ArrayList<>();
        for (String key : sosapi.keys()) {
            if (!key.startsWith(prefix)) {
                continue;
            }
            String name = rollUp(key, prefix, delimiter);
            if (after != null) {
                int c = UTF8.compare(name, after);
                boolean underAfter = delimiter != null && after.endsWith(delimiter) && name.startsWith(after)
                        && !after.equals(name);
                // Equal to the marker: a key's only version (the null one) is at or before any version marker.
                if (c <= 0 || underAfter) {
                    continue;
                }
            }
            if (resume != null && UTF8.compare(name, resume) > 0) {
                continue;
            }
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private static String rollUp(String key, String prefix, String delimiter) {
        if (delimiter == null || delimiter.isEmpty()) {
            return key;
        }
        int i = key.indexOf(delimiter, prefix.length());
        return i < 0 ? key : key.substring(0, i + delimiter.length());
    }

    /** The covered names that are whole keys (not rolled up), which need their documents rendered. */
    private static List<String> keysOnly(List<String> covered) {
        return covered.stream().filter(SosapiObjects::isReserved).toList();
    }

    /** Adds the covered rolled-up prefixes the store's page does not already have. */
    private static void addPrefixes(List<Entry> entries, List<String> covered, List<String> existing) {
        for (String name : covered) {
            if (!SosapiObjects.isReserved(name) && !existing.contains(name)) {
                entries.add(new Entry(name, true, null));
            }
        }
    }
}
