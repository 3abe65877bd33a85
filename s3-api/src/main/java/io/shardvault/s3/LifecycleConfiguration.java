package io.shardvault.s3;

import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlReader;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A bucket's lifecycle configuration (issue #24): PutBucketLifecycleConfiguration's document, validated as
 * S3 validates it, and the same document written back for GetBucketLifecycleConfiguration and for the
 * catalog, which keeps it as text.
 *
 * <p>What a rule may say that this server does not do is refused, never dropped: Transition and
 * NoncurrentVersionTransition (there are no storage classes here), and filters on tags or object sizes,
 * answer 501 NotImplemented. Elements are read by local name, with or without the S3 namespace.
 *
 * @param rules 1..{@value #MAX_RULES} rules with distinct IDs
 */
public record LifecycleConfiguration(List<LifecycleRule> rules) {
    /** S3's limit on rules per configuration. */
    public static final int MAX_RULES = 1000;
    private static final int MAX_ID_LENGTH = 255;
    private static final int MAX_NEWER_NONCURRENT = 100;

    public LifecycleConfiguration {
        rules = List.copyOf(rules);
    }

    /** Parses and validates a stored or sent document: {@link S3Error} as S3 answers a bad one. */
    public static LifecycleConfiguration parse(byte[] xml) {
        try {
            return parse(XmlReader.parse(xml));
        } catch (XmlReader.MalformedXmlException e) {
            throw S3Error.malformedXml();
        }
    }

    /** Validates a parsed {@code <LifecycleConfiguration>}. */
    public static LifecycleConfiguration parse(XmlElement xml) {
        if (!xml.name().equals("LifecycleConfiguration")) {
            throw S3Error.malformedXml();
        }
        List<XmlElement> ruleElements = xml.all("Rule");
        if (ruleElements.isEmpty()) {
            throw S3Error.malformedXml();
        }
        if (ruleElements.size() > MAX_RULES) {
            throw S3Error.invalidArgument("Configuration exceeds the maximum of " + MAX_RULES + " rules", "Rule",
                    Integer.toString(ruleElements.size()));
        }
        List<LifecycleRule> rules = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (XmlElement r : ruleElements) {
            LifecycleRule rule = rule(r, rules.size());
            if (!ids.add(rule.id())) {
                throw S3Error.invalidArgument("Rule ID must be unique. Found same ID for more than one rule", "ID",
                        rule.id());
            }
            rules.add(rule);
        }
        return new LifecycleConfiguration(rules);
    }

    private static LifecycleRule rule(XmlElement r, int index) {
        for (String refused : List.of("Transition", "NoncurrentVersionTransition")) {
            if (r.first(refused) != null) {
                throw S3Error.notImplemented("lifecycle " + refused + " (this server has no storage classes)");
            }
        }
        String id = r.childText("ID");
        // S3 names a rule sent without an ID; a stable name keeps GET answering what PUT was given.
        id = id == null || id.isBlank() ? "rule-" + (index + 1) : id.trim();
        if (id.length() > MAX_ID_LENGTH) {
            throw S3Error.invalidArgument("ID length should not exceed allowed limit of " + MAX_ID_LENGTH, "ID", id);
        }
        String status = r.childText("Status");
        if (status == null || !(status.trim().equals("Enabled") || status.trim().equals("Disabled"))) {
            throw S3Error.malformedXml();
        }
        String prefix = prefix(r);
        XmlElement expiration = r.first("Expiration");
        int days = 0;
        Optional<Instant> date = Optional.empty();
        boolean markers = false;
        if (expiration != null) {
            String d = expiration.childText("Days");
            String t = expiration.childText("Date");
            String m = expiration.childText("ExpiredObjectDeleteMarker");
            if ((d != null ? 1 : 0) + (t != null ? 1 : 0) + (m != null ? 1 : 0) != 1) {
                throw S3Error.malformedXml();
            }
            days = d == null ? 0 : positive(d, "Days", "'Days' for Expiration action must be a positive integer");
            date = t == null ? Optional.empty() : Optional.of(midnight(t));
            markers = m != null && bool(m);
        }
        XmlElement noncurrent = r.first("NoncurrentVersionExpiration");
        int noncurrentDays = 0;
        int newer = 0;
        if (noncurrent != null) {
            String nd = noncurrent.childText("NoncurrentDays");
            if (nd == null) {
                throw S3Error.malformedXml();
            }
            noncurrentDays = positive(nd, "NoncurrentDays",
                    "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer");
            String n = noncurrent.childText("NewerNoncurrentVersions");
            newer = n == null ? 0 : positive(n, "NewerNoncurrentVersions",
                    "'NewerNoncurrentVersions' must be a positive integer");
            if (newer > MAX_NEWER_NONCURRENT) {
                throw S3Error.invalidArgument("'NewerNoncurrentVersions' must be at most " + MAX_NEWER_NONCURRENT,
                        "NewerNoncurrentVersions", n);
            }
        }
        XmlElement abort = r.first("AbortIncompleteMultipartUpload");
        int abortDays = 0;
        if (abort != null) {
            String a = abort.childText("DaysAfterInitiation");
            if (a == null) {
                throw S3Error.malformedXml();
            }
            abortDays = positive(a, "DaysAfterInitiation",
                    "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer");
        }
        LifecycleRule rule = new LifecycleRule(id, status.trim().equals("Enabled"), prefix, days, date, markers,
                noncurrentDays, newer, abortDays);
        if (!rule.expiresCurrent() && !markers && noncurrentDays == 0 && abortDays == 0) {
            throw S3Error.badRequest("InvalidRequest", "At least one action needs to be specified in a rule");
        }
        return rule;
    }

    /** The rule's prefix: its Filter's, or the older rule-level Prefix; never both; tag and size filters refused. */
    private static String prefix(XmlElement r) {
        XmlElement filter = r.first("Filter");
        String legacy = r.childText("Prefix");
        if (filter != null && legacy != null) {
            throw S3Error.malformedXml();
        }
        if (filter == null) {
            return legacy == null ? "" : legacy;
        }
        for (XmlElement c : filter.children()) {
            if (!c.name().equals("Prefix")) {
                throw S3Error.notImplemented("lifecycle Filter/" + c.name() + " (only Prefix filters are supported)");
            }
        }
        String p = filter.childText("Prefix");
        return p == null ? "" : p;
    }

    private static int positive(String s, String name, String message) {
        try {
            int n = Integer.parseInt(s.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below, as a non-positive value is
        }
        throw S3Error.invalidArgument(message, name, s);
    }

    private static Instant midnight(String s) {
        Instant t;
        try {
            t = Instant.parse(s.trim());
        } catch (DateTimeParseException e) {
            throw S3Error.invalidArgument("Invalid date: " + s, "Date", s);
        }
        if (!t.atOffset(ZoneOffset.UTC).toLocalTime().equals(LocalTime.MIDNIGHT)) {
            throw S3Error.invalidArgument("'Date' must be at midnight GMT", "Date", s);
        }
        return t;
    }

    private static boolean bool(String s) {
        return switch (s.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw S3Error.malformedXml();
        };
    }

    /** The document, as the catalog keeps it (and {@link #parse(byte[])} reads it back). */
    public byte[] toXml() {
        return xml().toBytes();
    }

    /** The document, as GetBucketLifecycleConfiguration answers it. */
    public XmlWriter xml() {
        XmlWriter xml = XmlWriter.document("LifecycleConfiguration");
        for (LifecycleRule r : rules) {
            xml.start("Rule").element("ID", r.id()).start("Filter");
            if (!r.prefix().isEmpty()) {
                xml.element("Prefix", r.prefix());
            }
            xml.end().element("Status", r.enabled() ? "Enabled" : "Disabled");
            if (r.expiresCurrent() || r.expiredObjectDeleteMarker()) {
                xml.start("Expiration");
                if (r.expirationDays() > 0) {
                    xml.element("Days", r.expirationDays());
                } else if (r.expirationDate().isPresent()) {
                    xml.element("Date", r.expirationDate().get());
                } else {
                    xml.element("ExpiredObjectDeleteMarker", true);
                }
                xml.end();
            }
            if (r.noncurrentDays() > 0) {
                xml.start("NoncurrentVersionExpiration").element("NoncurrentDays", r.noncurrentDays());
                if (r.newerNoncurrentVersions() > 0) {
                    xml.element("NewerNoncurrentVersions", r.newerNoncurrentVersions());
                }
                xml.end();
            }
            if (r.abortAfterDays() > 0) {
                xml.start("AbortIncompleteMultipartUpload").element("DaysAfterInitiation", r.abortAfterDays()).end();
            }
            xml.end();
        }
        return xml;
    }
}
