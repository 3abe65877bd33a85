package io.shardvault.coordinator.admin.cli;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code admin buckets list|show|quota set}: buckets with their usage, and their quotas (issue #24). */
@Command(name = "buckets", mixinStandardHelpOptions = true, subcommands = BucketsCommand.Quota.class,
        description = "Lists buckets with their usage; shows one; sets a bucket's quota.")
final class BucketsCommand extends CommandGroup {
    static final ObjectName BUCKETS = io.shardvault.common.jmx.MBeanRegistrations.name("Buckets", "buckets");

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every bucket: owner account, created, versioning, object lock, objects, bytes stored (and"
                    + " on disk after erasure coding, estimated), quota.")
    int list() throws AdminException {
        return root.execute((session, out) -> {
            CompositeData[] buckets = (CompositeData[]) session.get(BUCKETS, "Buckets");
            if (root.json) {
                out.println(Json.of(buckets));
                return;
            }
            Table t = new Table("BUCKET", "OWNER", "CREATED", "VERSIONING", "LOCK", "OBJECTS", "STORED", "ON DISK",
                    "QUOTA", "USED");
            for (CompositeData b : buckets) {
                long stored = (Long) b.get("storedBytes");
                long quota = (Long) b.get("quotaBytes");
                t.row(b.get("name"), b.get("owner"), b.get("createdAt"), b.get("versioning"),
                        Boolean.TRUE.equals(b.get("objectLock")) ? "yes" : "no", b.get("objects"), Table.bytes(stored),
                        Table.bytes((Long) b.get("onDiskBytes")), quota == 0 ? "-" : Table.bytes(quota),
                        quota == 0 ? "-" : String.format("%.1f%%", 100.0 * stored / quota));
            }
            out.print(t.render());
        });
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One bucket with its usage.")
    int show(@Parameters(paramLabel = "BUCKET", description = "The bucket's name.") String bucket)
            throws AdminException {
        return root.execute((session, out) -> {
            CompositeData b = (CompositeData) session.invoke(BUCKETS, "bucket", new Object[] {bucket},
                    new String[] {String.class.getName()});
            if (root.json) {
                out.println(Json.of(b));
                return;
            }
            long quota = (Long) b.get("quotaBytes");
            out.println("bucket " + b.get("name"));
            out.println("  owner:       " + b.get("owner"));
            out.println("  created:     " + b.get("createdAt"));
            out.println("  versioning:  " + b.get("versioning"));
            out.println("  object lock: " + (Boolean.TRUE.equals(b.get("objectLock")) ? "yes" : "no"));
            out.println("  objects:     " + b.get("objects"));
            out.println("  stored:      " + Table.bytes((Long) b.get("storedBytes")) + " (" + b.get("storedBytes")
                    + " bytes)");
            out.println("  on disk:     " + Table.bytes((Long) b.get("onDiskBytes")) + " (estimated: stored x n / k)");
            out.println("  quota:       " + (quota == 0 ? "none" : Table.bytes(quota) + " (" + quota + " bytes)"));
            String[] rules = (String[]) b.get("lifecycleRules");
            out.println("  lifecycle:   " + (rules.length == 0 ? "none" : rules.length + (rules.length == 1 ? " rule"
                    : " rules")));
            for (String rule : rules) {
                out.println("    " + rule);
            }
        });
    }

    /** {@code admin buckets quota set NAME SIZE}. */
    @Command(name = "quota", mixinStandardHelpOptions = true, description = "Sets a bucket's quota.")
    static final class Quota implements Runnable {
        @ParentCommand
        BucketsCommand buckets;

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            throw CommandGroup.missingSubcommand(spec);
        }

        @Command(name = "set", mixinStandardHelpOptions = true,
                description = "Sets the quota: a PUT, UploadPart, CompleteMultipartUpload or copy that would take the"
                        + " bucket past it is refused (403 QuotaExceeded) before any byte is stored. 0 or none"
                        + " removes it.")
        int set(@Parameters(paramLabel = "BUCKET", description = "The bucket's name.") String bucket,
                @Parameters(paramLabel = "SIZE", description = "Bytes, or with a unit: 500GiB, 10TiB, 1TB; 0 or"
                        + " none for no quota.") String size) throws AdminException {
            long bytes = parseSize(spec, size);
            return buckets.root.execute((session, out) -> {
                session.invoke(BUCKETS, "setQuota", new Object[] {bucket, bytes},
                        new String[] {String.class.getName(), long.class.getName()});
                out.println(bytes == 0 ? "bucket " + bucket + " has no quota"
                        : "bucket " + bucket + " quota set to " + Table.bytes(bytes) + " (" + bytes + " bytes)");
            });
        }
    }

    /** A size as HOCON's memory sizes read it (the config files' syntax), or 0 for {@code none}. */
    static long parseSize(CommandSpec spec, String size) {
        if (size.equalsIgnoreCase("none")) {
            return 0;
        }
        try {
            long bytes = ConfigFactory.empty().withValue("size", ConfigValueFactory.fromAnyRef(size)).getBytes("size");
            if (bytes < 0) {
                throw new ParameterException(spec.commandLine(), "a quota cannot be negative: " + size);
            }
            return bytes;
        } catch (ConfigException e) {
            throw new ParameterException(spec.commandLine(), "not a size: " + size + " (say 500GiB, 10TiB or a byte"
                    + " count)");
        }
    }
}
