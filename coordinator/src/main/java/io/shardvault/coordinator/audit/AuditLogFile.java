package io.shardvault.coordinator.audit;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.shardvault.s3.S3Server;
import java.io.IOException;
import java.net.URL;
import java.util.stream.Collectors;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log's rolling JSON file: gives the S3 endpoint's {@link S3Server#AUDIT_LOGGER} logger
 * (additivity off, so audit lines stay out of the service log) the appender of
 * {@code audit-logback.xml} beside this class: a Logback {@code RollingFileAppender} with a
 * {@code SizeAndTimeBasedRollingPolicy} (size, days kept, total size) and Logback's own
 * {@code JsonEncoder}. The {@code audit.*} settings reach that file as Logback properties
 * ({@code shardvault.audit.file}, ...).
 *
 * <p>A Logback configuration that already gives the logger an appender (an operator's own
 * {@code -Dlogback.configurationFile}) is left as it is. Not thread-safe: start and close it from the
 * service's main thread and shutdown hook.
 */
public final class AuditLogFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditLogFile.class);
    static final String APPENDER = "AUDIT";
    /** The rolling file appender behind {@link #APPENDER}, an AsyncAppender (audit-logback.xml says why). */
    static final String FILE_APPENDER = "AUDIT_FILE";

    private final ch.qos.logback.classic.Logger logger;

    private AuditLogFile(ch.qos.logback.classic.Logger logger) {
        this.logger = logger;
    }

    /**
     * Opens the file and starts logging to it; disabled, does nothing.
     *
     * @throws IOException when the file cannot be opened (a missing permission, a path that is a directory)
     */
    public static AuditLogFile start(AuditLogConfig config) throws IOException {
        if (!config.enabled()) {
            return new AuditLogFile(null);
        }
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            throw new IOException("the audit log needs Logback as the SLF4J provider, not "
                    + factory.getClass().getName() + "; set audit.enabled = false to run without one");
        }
        ch.qos.logback.classic.Logger logger = context.getLogger(S3Server.AUDIT_LOGGER);
        if (logger.iteratorForAppenders().hasNext()) {
            LOG.info("audit log: the Logback configuration's own appenders for logger {}", S3Server.AUDIT_LOGGER);
            return new AuditLogFile(null);
        }
        String file = config.file().toAbsolutePath().toString();
        context.putProperty("shardvault.audit.file", file);
        context.putProperty("shardvault.audit.rolledFiles", config.rolledFilePattern());
        context.putProperty("shardvault.audit.maxFileSize", Long.toString(config.maxFileSize()));
        context.putProperty("shardvault.audit.maxAgeDays", Integer.toString(config.maxAgeDays()));
        context.putProperty("shardvault.audit.maxTotalSize", Long.toString(config.maxTotalSize()));
        long since = System.currentTimeMillis();
        URL xml = AuditLogFile.class.getResource("audit-logback.xml");
        try {
            JoranConfigurator joran = new JoranConfigurator();
            joran.setContext(context);
            joran.doConfigure(xml);
        } catch (JoranException e) {
            throw new IOException("cannot configure the audit log from " + xml + ": " + e.getMessage(), e);
        }
        Appender<?> appender = logger.getAppender(APPENDER);
        if (!(appender instanceof AsyncAppender async) || !async.isStarted() || async.getAppender(FILE_APPENDER) == null
                || !async.getAppender(FILE_APPENDER).isStarted()) {
            AuditLogFile failed = new AuditLogFile(logger);
            failed.close();
            throw new IOException("cannot open the audit log " + file + " (audit.file): "
                    + errorsSince(context, since));
        }
        LOG.info("audit log: one JSON line per S3 request in {}", file);
        return new AuditLogFile(logger);
    }

    private static String errorsSince(LoggerContext context, long since) {
        return context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() >= Status.WARN && s.getTimestamp() >= since)
                .map(s -> s.getMessage() + (s.getThrowable() != null ? ": " + s.getThrowable() : ""))
                .collect(Collectors.joining("; "));
    }

    /** Stops the appender, writing what it holds; the logger is off again. */
    @Override
    public void close() {
        if (logger != null) {
            logger.detachAndStopAllAppenders();
            logger.setLevel(Level.OFF);
        }
    }
}
