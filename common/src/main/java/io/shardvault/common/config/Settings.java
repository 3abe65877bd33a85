package io.shardvault.common.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings a process was started with: an optional HOCON file, with {@code key=value}
 * overrides from the command line taking precedence. Values are read through {@link ConfigKey}s,
 * which parse, validate and log them; an absent key yields its default.
 *
 * <p>Immutable and thread-safe.
 */
public final class Settings {
    private static final Logger LOG = LoggerFactory.getLogger(Settings.class);
    private static final String COMMAND_LINE = "command line";

    private final Config config;
    private final String source;

    private Settings(Config config, String source) {
        this.config = config;
        this.source = source;
    }

    /** No file, no overrides: every key at its default. */
    public static Settings empty() {
        return new Settings(ConfigFactory.empty(), "defaults");
    }

    /**
     * Reads the file (when given) and lays the overrides over it.
     *
     * @param file a HOCON file, or empty for defaults only
     * @param overrides {@code key=value} strings, as given with {@code --set} on the command line
     * @throws ConfigException if the file is missing or unparsable, or an override is not {@code key=value}
     */
    public static Settings load(Optional<Path> file, List<String> overrides) {
        Config base = ConfigFactory.empty();
        String source = "defaults";
        if (file.isPresent()) {
            Path path = file.get();
            if (!Files.isRegularFile(path)) {
                throw new ConfigException("config file " + path + " does not exist or is not a file");
            }
            try {
                base = ConfigFactory.parseFile(path.toFile(),
                        ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false));
            } catch (com.typesafe.config.ConfigException e) {
                throw new ConfigException("config file " + path + " cannot be parsed: " + e.getMessage(), e);
            }
            source = path.toString();
        }
        return new Settings(parseOverrides(overrides).withFallback(base).resolve(), source);
    }

    /**
     * Settings from HOCON text that came from elsewhere than a local file (a cluster map sent over JMX),
     * named {@code source} in every message about them.
     *
     * @throws ConfigException if the text cannot be parsed
     */
    public static Settings parse(String text, String source) {
        try {
            return new Settings(ConfigFactory.parseString(text, ConfigParseOptions.defaults()
                    .setSyntax(ConfigSyntax.CONF).setOriginDescription(source)).resolve(), source);
        } catch (com.typesafe.config.ConfigException e) {
            throw new ConfigException(source + " cannot be parsed: " + e.getMessage(), e);
        }
    }

    /** Settings from in-memory values, for tests and embedded clusters. */
    public static Settings of(Map<String, ?> values) {
        return new Settings(ConfigFactory.parseMap(values, "in-memory settings"), "in-memory settings");
    }

    /** A copy with {@code values} laid over these settings. */
    public Settings with(Map<String, ?> values) {
        return new Settings(ConfigFactory.parseMap(values, "in-memory settings").withFallback(config), source);
    }

    /**
     * The value of a key: from the overrides, else the file, else the key's default.
     *
     * @throws ConfigException naming the key and the value's origin when it cannot be parsed or is invalid
     */
    public <T> T get(ConfigKey<T> key) {
        if (!config.hasPath(key.name())) {
            return key.defaultValue();
        }
        String origin = config.getValue(key.name()).origin().description();
        T value;
        try {
            value = key.read(config);
        } catch (com.typesafe.config.ConfigException e) {
            // Typesafe's own message quotes the value: a secret's goes without it (and without the cause).
            throw key.secret()
                    ? new ConfigException(key.name() + " (" + origin + "): expected " + key.validRange())
                    : new ConfigException(key.name() + " (" + origin + "): expected " + key.validRange() + ", got "
                            + config.getValue(key.name()).render() + ": " + e.getMessage(), e);
        }
        if (!key.isValid(value)) {
            throw new ConfigException(key.name() + " (" + origin + "): expected " + key.validRange() + ", got "
                    + shown(key, value));
        }
        LOG.debug("setting {}={} from {}", key.name(), shown(key, value), origin);
        return value;
    }

    private static String shown(ConfigKey<?> key, Object value) {
        return key.secret() ? "(secret, not shown)" : String.valueOf(value);
    }

    /**
     * Fails on any setting that none of {@code known} declares: a misspelt key must not be
     * silently ignored.
     *
     * @throws ConfigException listing each unknown key and where it was set
     */
    public void rejectUnknown(Collection<ConfigKey<?>> known) {
        Set<String> names = known.stream().map(ConfigKey::name).collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, ConfigValue> entry : config.entrySet()) {
            if (!names.contains(entry.getKey())) {
                unknown.add(entry.getKey() + " (" + entry.getValue().origin().description() + ")");
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown setting" + (unknown.size() > 1 ? "s" : "") + " in " + source + ": "
                    + String.join(", ", new TreeSet<>(unknown)) + "; known settings are "
                    + new TreeSet<>(names));
        }
    }

    /** Whether {@code name} is set (in the overrides or the file), whether or not any key declares it. */
    public boolean isSet(String name) {
        return config.hasPath(name);
    }

    /**
     * Whether {@code name} was set with {@code --set} on the command line, where any local user's
     * {@code ps} sees it: a secret must come from a file or the environment instead.
     */
    public boolean isSetOnCommandLine(String name) {
        return config.hasPath(name) && COMMAND_LINE.equals(config.getValue(name).origin().description());
    }

    /** Where these settings came from: a file name, or "defaults". */
    public String source() {
        return source;
    }

    private static Config parseOverrides(List<String> overrides) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String override : overrides) {
            int eq = override.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("command-line setting '" + override + "' is not key=value");
            }
            values.put(override.substring(0, eq).trim(), override.substring(eq + 1).trim());
        }
        return ConfigFactory.parseMap(values, COMMAND_LINE);
    }
}
