package io.shardvault.common.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * One setting: its dotted key, its type, its default, what it means, and which values are valid.
 * Declare keys as constants of a module's {@code *ConfigKeys} class and read them with
 * {@link Settings#get}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value's type
 */
public final class ConfigKey<T> {

    private final String name;
    private final T defaultValue;
    private final String description;
    private final String validRange;
    private final Predicate<T> validator;
    private final BiFunction<Config, String, T> reader;
    private final boolean secret;

    private ConfigKey(String name, T defaultValue, String description, String validRange,
                      Predicate<T> validator, BiFunction<Config, String, T> reader) {
        this(name, defaultValue, description, validRange, validator, reader, false);
    }

    private ConfigKey(String name, T defaultValue, String description, String validRange,
                      Predicate<T> validator, BiFunction<Config, String, T> reader, boolean secret) {
        this.name = Objects.requireNonNull(name, "name");
        this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
        this.description = Objects.requireNonNull(description, "description");
        this.validRange = Objects.requireNonNull(validRange, "validRange");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.secret = secret;
        if (!validator.test(defaultValue)) {
            throw new IllegalArgumentException("default of " + name + " is not " + validRange + ": " + defaultValue);
        }
    }

    /** An integer in {@code [min, max]}. */
    public static ConfigKey<Integer> ofInt(String name, int defaultValue, int min, int max, String description) {
        return new ConfigKey<>(name, defaultValue, description, "an integer in [" + min + ", " + max + "]",
                v -> v >= min && v <= max, Config::getInt);
    }

    /** A byte count in {@code [min, max]}; the file may say {@code 64MiB}, {@code 1g} or a plain number. */
    public static ConfigKey<Long> ofBytes(String name, long defaultValue, long min, long max, String description) {
        return new ConfigKey<>(name, defaultValue, description, "a byte size in [" + min + ", " + max + "]",
                v -> v >= min && v <= max, Config::getBytes);
    }

    /** A duration in {@code [min, max]}; the file says {@code 30s}, {@code 250ms} and so on. */
    public static ConfigKey<Duration> ofDuration(String name, Duration defaultValue, Duration min, Duration max,
                                                 String description) {
        return new ConfigKey<>(name, defaultValue, description, "a duration in [" + min + ", " + max + "]",
                v -> v.compareTo(min) >= 0 && v.compareTo(max) <= 0, Config::getDuration);
    }

    /** A boolean. */
    public static ConfigKey<Boolean> ofBoolean(String name, boolean defaultValue, String description) {
        return new ConfigKey<>(name, defaultValue, description, "true or false", v -> true, Config::getBoolean);
    }

    /** A non-empty string. */
    public static ConfigKey<String> ofString(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, defaultValue, description, "a non-empty string", v -> !v.isBlank(),
                Config::getString);
    }

    /**
     * A non-empty string that is a secret (a password, a secret key): {@link Settings} never logs it
     * nor puts it in an error message, at any level.
     */
    public static ConfigKey<String> ofSecret(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, defaultValue, description, "a non-empty string", v -> !v.isBlank(),
                Config::getString, true);
    }

    /** A string from a fixed set of choices. */
    public static ConfigKey<String> ofChoice(String name, String defaultValue, java.util.Set<String> choices,
                                             String description) {
        return new ConfigKey<>(name, defaultValue, description, "one of " + new java.util.TreeSet<>(choices),
                choices::contains, Config::getString);
    }

    /** A regular expression ({@link java.util.regex.Pattern} syntax) that compiles; the reader compiles it. */
    public static ConfigKey<String> ofRegex(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, defaultValue, description, "a regular expression", ConfigKey::compiles,
                Config::getString);
    }

    private static boolean compiles(String regex) {
        try {
            java.util.regex.Pattern.compile(regex);
            return true;
        } catch (java.util.regex.PatternSyntaxException e) {
            return false;
        }
    }

    /** A filesystem path. */
    public static ConfigKey<Path> ofPath(String name, Path defaultValue, String description) {
        return new ConfigKey<>(name, defaultValue, description, "a path", v -> !v.toString().isEmpty(),
                (c, k) -> Path.of(c.getString(k)));
    }

    public String name() {
        return name;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** What a valid value looks like, for error messages and {@code --help}. */
    public String validRange() {
        return validRange;
    }

    /** Whether the value is a secret, never to be logged or shown. */
    public boolean secret() {
        return secret;
    }

    boolean isValid(T value) {
        return validator.test(value);
    }

    T read(Config config) {
        return reader.apply(config, name);
    }

    @Override
    public String toString() {
        return name;
    }
}
