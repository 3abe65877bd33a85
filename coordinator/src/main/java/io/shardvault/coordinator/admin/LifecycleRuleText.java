package io.shardvault.coordinator.admin;

import io.shardvault.s3.LifecycleRule;
import java.util.ArrayList;
import java.util.List;

/** A bucket's lifecycle rule as one line an operator reads ({@code admin buckets show}). */
public final class LifecycleRuleText {
    private LifecycleRuleText() {
    }

    /** E.g. {@code logs (enabled), keys "logs/": current versions expire after 30 days; uploads aborted after 2 days}. */
    public static String of(LifecycleRule r) {
        List<String> actions = new ArrayList<>();
        if (r.expirationDays() > 0) {
            actions.add("current versions expire after " + days(r.expirationDays()));
        }
        r.expirationDate().ifPresent(d -> actions.add("current versions expire from " + d));
        if (r.expiredObjectDeleteMarker()) {
            actions.add("lone delete markers removed");
        }
        if (r.noncurrentDays() > 0) {
            actions.add("noncurrent versions removed after " + days(r.noncurrentDays())
                    + (r.newerNoncurrentVersions() > 0 ? ", the newest " + r.newerNoncurrentVersions() + " kept" : ""));
        }
        if (r.abortAfterDays() > 0) {
            actions.add("incomplete uploads aborted " + days(r.abortAfterDays()) + " after initiation");
        }
        return r.id() + " (" + (r.enabled() ? "enabled" : "disabled") + "), "
                + (r.prefix().isEmpty() ? "every key" : "keys \"" + r.prefix() + "\"") + ": "
                + (actions.isEmpty() ? "no action" : String.join("; ", actions));
    }

    private static String days(int n) {
        return n + (n == 1 ? " day" : " days");
    }
}
