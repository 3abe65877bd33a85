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

    private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final String name;
    private final String type;
    private final T defaultValue;
    private final String description;
    private final String range;
    private final String validRange;
    private final Predicate<T> validator;
    private final BiFunction<Config, String, T> reader;
    private final boolean secret;
    private final Class<?> declaredBy;

    private ConfigKey(String name, String type, T defaultValue, String description, String range, String validRange,
                      Predicate<T> validator, BiFunction<Config, String, T> reader, boolean secret) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
        this.description = Objects.requireNonNull(description, "description");
        this.range = Objects.requireNonNull(range, "range");
        this.validRange = Objects.requireNonNull(validRange, "validRange");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.secret = secret;
        // The class whose constant this is, so the configuration reference groups keys by where they are declared
        // without a hand-kept list (a *ConfigKeys all() may list another class's keys too).
        this.declaredBy = CALLERS.walk(frames -> frames.<Class<?>>map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> c != ConfigKey.class).findFirst().orElse(ConfigKey.class));
        if (!validator.test(defaultValue)) {
            throw new IllegalArgumentException("default of " + name + " is not " + validRange + ": " + defaultValue);
        }
    }

    /** An integer in {@code [min, max]}. */
    public static ConfigKey<Integer> ofInt(String name, int defaultValue, int min, int max, String description) {
        String range = "[" + min + ", " + max + "]";
        return new ConfigKey<>(name, "integer", defaultValue, description, range, "an integer in " + range,
                v -> v >= min && v <= max, Config::getInt, false);
    }

    /** A byte count in {@code [min, max]}; the file may say {@code 64MiB}, {@code 1g} or a plain number. */
    public static ConfigKey<Long> ofBytes(String name, long defaultValue, long min, long max, String description) {
        String range = "[" + ConfigValues.bytes(min) + ", " + ConfigValues.bytes(max) + "]";
        return new ConfigKey<>(name, "bytes", defaultValue, description, range, "a byte size in " + range,
                v -> v >= min && v <= max, Config::getBytes, false);
    }

    /** A duration in {@code [min, max]}; the file says {@code 30s}, {@code 250ms} and so on. */
    public static ConfigKey<Duration> ofDuration(String name, Duration defaultValue, Duration min, Duration max,
                                                 String description) {
        String range = "[" + ConfigValues.duration(min) + ", " + ConfigValues.duration(max) + "]";
        return new ConfigKey<>(name, "duration", defaultValue, description, range, "a duration in " + range,
                v -> v.compareTo(min) >= 0 && v.compareTo(max) <= 0, Config::getDuration, false);
    }

    /** A boolean. */
    public static ConfigKey<Boolean> ofBoolean(String name, boolean defaultValue, String description) {
        return new ConfigKey<>(name, "boolean", defaultValue, description, "", "true or false", v -> true,
                Config::getBoolean, false);
    }

    /** A non-empty string. */
    public static ConfigKey<String> ofString(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, "string", defaultValue, description, "non-empty", "a non-empty string",
                v -> !v.isBlank(), Config::getString, false);
    }

    /**
     * A non-empty string that is a secret (a password, a secret key): {@link Settings} never logs it
     * nor puts it in an error message, at any level.
     */
    public static ConfigKey<String> ofSecret(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, "secret", defaultValue, description, "non-empty", "a non-empty string",
                v -> !v.isBlank(), Config::getString, true);
    }

    /** A string from a fixed set of choices. */
    public static ConfigKey<String> ofChoice(String name, String defaultValue, java.util.Set<String> choices,
                                             String description) {
        String range = "one of " + new java.util.TreeSet<>(choices);
        return new ConfigKey<>(name, "string", defaultValue, description, range, range, choices::contains,
                Config::getString, false);
    }

    /** A regular expression ({@link java.util.regex.Pattern} syntax) that compiles; the reader compiles it. */
    public static ConfigKey<String> ofRegex(String name, String defaultValue, String description) {
        return new ConfigKey<>(name, "regex", defaultValue, description, "compiles", "a regular expression",
                ConfigKey::compiles, Config::getString, false);
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
        return new ConfigKey<>(name, "path", defaultValue, description, "", "a path", v -> !v.toString().isEmpty(),
                (c, k) -> Path.of(c.getString(k)), false);
    }

    public String name() {
        return name;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** The value's kind, as the configuration reference shows it: integer, bytes, duration, boolean, string, ... */
    public String type() {
        return type;
    }

    /** The default as a settings file would write it ({@code 30s}, {@code 64MiB}). */
    public String defaultText() {
        if (defaultValue instanceof Duration d) {
            return ConfigValues.duration(d);
        }
        return "bytes".equals(type) ? ConfigValues.bytes((Long) defaultValue) : String.valueOf(defaultValue);
    }

    public String description() {
        return description;
    }

    /** The valid values within the type ({@code [1, 64]}, {@code one of [a, b]}), or "" for any. */
    public String range() {
        return range;
    }

    /** The class whose constant this key is (a {@code *ConfigKeys} class, usually). */
    public Class<?> declaredBy() {
        return declaredBy;
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
