/**
 * Typed configuration. Settings come from a HOCON file (Lightbend/Typesafe Config) with
 * {@code key=value} overrides from the command line on top. Each module declares its settings as
 * {@link io.shardvault.common.config.ConfigKey} constants in a {@code *ConfigKeys} class (a key,
 * a typed default, a description and a validator) and resolves them once at startup into an
 * immutable options record. A bad value is an error that names the key and where it came from.
 */
package io.shardvault.common.config;
