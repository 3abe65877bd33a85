package io.shardvault.common.jmx;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What an MXBean, attribute (put it on the getter), operation or operation parameter means, as
 * JConsole shows it. {@link DescribedMXBean} reads it; a parameter's {@link #name()} replaces the
 * {@code p0, p1, ...} names JMX would otherwise show.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.PARAMETER})
public @interface Description {
    /** The sentence shown as the description. */
    String value();

    /** A parameter's name (parameters only; empty keeps JMX's default). */
    String name() default "";
}
