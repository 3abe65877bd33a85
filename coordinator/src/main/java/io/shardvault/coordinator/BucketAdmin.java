package io.shardvault.coordinator;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.Usage;
import java.lang.management.ManagementFactory;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The {@link BucketAdminMXBean} of one coordinator, over its catalog client. Thread-safe; holds no
 * state but its registration, which {@link #close} removes.
 */
public final class BucketAdmin implements BucketAdminMXBean, AutoCloseable {
    private static final long TIMEOUT_SECONDS = 30;

    private final Catalog catalog;
    private final ObjectName name;

    private BucketAdmin(Catalog catalog, ObjectName name) {
        this.catalog = catalog;
        this.name = name;
    }

    /** Registers the bean in the platform MBean server under this catalog peer's name. */
    public static BucketAdmin register(Catalog catalog, String peerId) throws JMException {
        Objects.requireNonNull(catalog, "catalog");
        ObjectName name = new ObjectName("io.shardvault", "type", "BucketAdmin");
        name = new ObjectName(name.getCanonicalName() + ",peer=" + ObjectName.quote(peerId));
        BucketAdmin admin = new BucketAdmin(catalog, name);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        if (server.isRegistered(name)) {
            // A previous coordinator of this peer in the same JVM (tests restart them) left it.
            server.unregisterMBean(name);
        }
        server.registerMBean(admin, name);
        return admin;
    }

    public ObjectName name() {
        return name;
    }

    @Override
    public void setQuota(String bucket, long quotaBytes) {
        await(catalog.setBucketQuota(bucket, quotaBytes));
    }

    @Override
    public long getQuota(String bucket) {
        return usage(bucket).quotaBytes();
    }

    @Override
    public long getStoredBytes(String bucket) {
        return usage(bucket).storedBytes();
    }

    private Usage usage(String bucket) {
        return await(catalog.usage(Optional.of(bucket)));
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            // JMX clients may not have our exception classes: pass the message, not the type.
            throw new IllegalStateException(e.getCause() instanceof CatalogException c
                    ? c.code() + ": " + c.getMessage() : String.valueOf(e.getCause()));
        } catch (TimeoutException e) {
            throw new IllegalStateException("the catalog did not answer within " + TIMEOUT_SECONDS + " s");
        }
    }

    @Override
    public void close() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (JMException e) {
            // Unregistering at shutdown: nothing left to do about it.
        }
    }
}
