package io.shardvault.it.security;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.LoggerFactory;

/**
 * Turns the given loggers to DEBUG and keeps every line logged in this JVM, rendered as an appender
 * would write it (message with its arguments, MDC, the whole throwable chain), in memory until
 * {@link #close()}, which restores the loggers. The loggers turned to DEBUG write to this capture only,
 * not to the console: a cluster at DEBUG writes hundreds of thousands of lines.
 *
 * <p>Thread-safe: any thread may log while a test reads {@link #lines()}.
 */
final class DebugLogCapture implements AutoCloseable {
    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final Map<Logger, Level> levels = new HashMap<>();
    private final Map<Logger, Boolean> additivity = new HashMap<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            StringBuilder line = new StringBuilder().append(event.getLevel()).append(' ')
                    .append(event.getLoggerName()).append(' ').append(event.getFormattedMessage());
            if (!event.getMDCPropertyMap().isEmpty()) {
                line.append(" mdc=").append(event.getMDCPropertyMap());
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                line.append('\n').append(ThrowableProxyUtil.asString(thrown));
            }
            lines.add(line.toString());
        }
    };

    DebugLogCapture(String... debugLoggers) {
        appender.setContext(context);
        appender.setName("debug-capture");
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        for (String name : debugLoggers) {
            Logger logger = context.getLogger(name);
            levels.put(logger, logger.getLevel());
            additivity.put(logger, logger.isAdditive());
            logger.setLevel(Level.DEBUG);
            logger.setAdditive(false);
            logger.addAppender(appender);
        }
    }

    /** Every line so far. */
    List<String> lines() {
        return new ArrayList<>(lines);
    }

    @Override
    public void close() {
        for (Map.Entry<Logger, Level> e : levels.entrySet()) {
            e.getKey().detachAppender(appender);
            e.getKey().setLevel(e.getValue());
            e.getKey().setAdditive(additivity.get(e.getKey()));
        }
        context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
        appender.stop();
    }
}
