package io.shardvault.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.ConfigReference;
import io.shardvault.pod.PodMain;
import io.shardvault.stash.StashMain;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * docs/CONFIGURATION.md is the {@link ConfigReference} of the keys each service checks its settings
 * against, regenerated here and compared; with {@code -Dconfig.reference.write=true} this test
 * rewrites it instead. Lives in the coordinator's tests because they see all three services.
 */
class ConfigurationReferenceTest {
    private static final String WRITE_PROPERTY = "config.reference.write";
    static final String REGENERATE = "./mvnw -B -o -q test -pl coordinator -am -Dtest=ConfigurationReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true";
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path DOC = REPO.resolve("docs").resolve("CONFIGURATION.md");

    static List<ConfigReference.Role> roles() {
        return List.of(role(CoordinatorMain.commandLine(), CoordinatorMain.allKeys()),
                role(PodMain.commandLine(), PodMain.keys()),
                role(StashMain.commandLine(), StashMain.keys()));
    }

    private static ConfigReference.Role role(CommandLine cli, List<ConfigKey<?>> keys) {
        return new ConfigReference.Role(cli.getCommandName(),
                String.join(" ", cli.getCommandSpec().usageMessage().description()), keys);
    }

    static String reference() {
        String intro = """
                <!-- Generated from the code by ConfigurationReferenceTest: edit the keys' descriptions, not this \
                file. Rewrite it with: %s -->

                Every setting a shardvault service reads, generated from the `ConfigKey` constants the services \
                check their settings against: a service refuses to start on a key it does not read, so nothing \
                here is ignored and nothing it reads is missing. Settings come from a HOCON file (`--config FILE`; \
                the pod takes one file per pod instance) with `--set key=value` on the command line winning over \
                the file. `--help` on each service prints its own keys.

                Values: durations as `250ms`, `30s`, `5m`, `2h`, `1d`; byte sizes as `4096`, `64KiB`, `1GiB`. \
                Relative paths are relative to the service's working directory. A key of type `secret` is never \
                logged nor shown; set it in the file (HOCON can read it from the environment: \
                `key = ${?ENV_VAR}`), never with `--set`, which other local users can see in `ps`.

                Logging is set with JVM system properties rather than keys (`-Dshardvault.log.level=DEBUG`, \
                `-Dshardvault.log.format=json`): see docs/OPERATIONS.md, "Logs" and "The audit log".
                """.formatted(REGENERATE);
        return ConfigReference.markdown("Configuration reference", intro, roles());
    }

    @Test
    void docsConfigurationMdIsTheReferenceOfTheKeys() throws IOException {
        String expected = reference();
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
        }
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
        assertThat(actual).as("docs/CONFIGURATION.md is stale (a key was added, removed or changed); rewrite it with: "
                + REGENERATE).isEqualTo(expected);
    }

    /** A {@code *ConfigKeys} class no service lists would be a setting every service refuses: found by listing. */
    @Test
    void everyConfigKeysClassIsReadBySomeService() throws Exception {
        Set<String> read = roles().stream().flatMap(r -> r.keys().stream()).map(ConfigKey::name)
                .collect(Collectors.toSet());
        List<Path> sources;
        try (Stream<Path> files = Files.walk(REPO)) {
            sources = files.filter(p -> p.getFileName().toString().endsWith("ConfigKeys.java"))
                    .filter(p -> p.toString().contains("/src/main/java/")).sorted().toList();
        }
        assertThat(sources).as("*ConfigKeys classes under " + REPO).hasSizeGreaterThan(10);
        List<String> unread = new ArrayList<>();
        for (Path source : sources) {
            String relative = source.toString().substring(source.toString().indexOf("/src/main/java/")
                    + "/src/main/java/".length());
            Class<?> keysClass = Class.forName(relative.replace(".java", "").replace('/', '.'));
            @SuppressWarnings("unchecked")
            List<ConfigKey<?>> keys = (List<ConfigKey<?>>) keysClass.getMethod("all").invoke(null);
            keys.stream().filter(k -> !read.contains(k.name()))
                    .forEach(k -> unread.add(keysClass.getSimpleName() + ": " + k.name()));
        }
        assertThat(unread).as("keys declared but read by no service").isEmpty();
    }

    static Stream<Arguments> services() {
        return Stream.of(
                Arguments.of("coordinator", (Supplier<CommandLine>) CoordinatorMain::commandLine,
                        CoordinatorMain.allKeys()),
                Arguments.of("pod", (Supplier<CommandLine>) PodMain::commandLine, PodMain.keys()),
                Arguments.of("stash", (Supplier<CommandLine>) StashMain::commandLine, StashMain.keys()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("services")
    void helpPrintsUsageAndEveryKeyWithItsDefault(String name, Supplier<CommandLine> commandLine,
                                                 List<ConfigKey<?>> keys) {
        StringWriter out = new StringWriter();
        CommandLine cli = commandLine.get();
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute("--help")).isZero();
        // Picocli wraps the footer to the usage width: compare with runs of white space as one space.
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).startsWith("Usage: " + name).contains("--config", "--set");
        assertThat(keys).isNotEmpty();
        for (ConfigKey<?> key : keys) {
            assertThat(help).contains(" " + key.name() + " (" + key.type() + ", default " + key.defaultText());
        }
    }
}
