package io.shardvault.common.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings reference, written from the {@link ConfigKey}s themselves so it cannot drift from
 * what the services read: Markdown for {@code docs/CONFIGURATION.md}, plain text for a service's
 * {@code --help}. Keys are grouped by the class that declares them ({@link ConfigKey#declaredBy});
 * a group read by one service goes under that service, a group read by several under "Shared".
 *
 * <p>Stateless and thread-safe.
 */
public final class ConfigReference {

    /**
     * A service and every key it reads (the list it checks settings against with
     * {@link Settings#rejectUnknown}).
     *
     * @param name the service's command name ({@code coordinator}, {@code pod}, {@code stash})
     * @param summary one sentence on what the service is
     * @param keys every key it reads
     */
    public record Role(String name, String summary, List<ConfigKey<?>> keys) {
        public Role {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(summary, "summary");
            keys = List.copyOf(keys);
        }
    }

    private ConfigReference() {
    }

    /**
     * The Markdown reference: {@code intro} (Markdown, may be empty), then a section per service, then the
     * groups several services read, each group a table of key, type, default, range and description.
     */
    public static String markdown(String title, String intro, List<Role> roles) {
        Map<Class<?>, List<ConfigKey<?>>> groups = groupByDeclaringClass(
                roles.stream().flatMap(r -> r.keys().stream()).toList());
        Map<String, Set<String>> readers = readersByKey(roles);
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        if (!intro.isEmpty()) {
            md.append(intro.strip()).append("\n\n");
        }
        for (Role role : roles) {
            md.append("## ").append(role.name()).append("\n\n").append(role.summary().strip()).append("\n\n");
            for (Map.Entry<Class<?>, List<ConfigKey<?>>> group : groups.entrySet()) {
                Set<String> groupReaders = readersOf(group.getValue(), readers);
                if (groupReaders.equals(Set.of(role.name()))) {
                    appendTable(md, group.getKey(), group.getValue(), null);
                }
            }
        }
        boolean sharedHeading = false;
        for (Map.Entry<Class<?>, List<ConfigKey<?>>> group : groups.entrySet()) {
            if (readersOf(group.getValue(), readers).size() > 1) {
                if (!sharedHeading) {
                    md.append("## Shared\n\nRead by more than one service; each row says which.\n\n");
                    sharedHeading = true;
                }
                appendTable(md, group.getKey(), group.getValue(), readers);
            }
        }
        return md.toString().strip() + "\n";
    }

    /**
     * The plain-text reference of one service's keys, for {@code --help}: a line per key with its type,
     * default and range, then its description.
     */
    public static String plainText(List<ConfigKey<?>> keys) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<Class<?>, List<ConfigKey<?>>> group : groupByDeclaringClass(keys).entrySet()) {
            out.append('\n').append(group.getKey().getSimpleName()).append('\n');
            for (ConfigKey<?> k : group.getValue()) {
                out.append("  ").append(k.name()).append(" (").append(k.type()).append(", default ")
                        .append(k.defaultText()).append(k.range().isEmpty() ? "" : ", " + k.range()).append(")\n")
                        .append("      ").append(k.description()).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The footer of a picocli usage message listing {@code keys}: picocli formats footers with
     * {@link String#format}, so each percent sign is doubled.
     */
    public static String[] helpFooter(List<ConfigKey<?>> keys) {
        return new String[] {"", "Settings (a HOCON file given with --config, or --set key=value; "
                + "all of them in docs/CONFIGURATION.md):", plainText(keys).replace("%", "%%")};
    }

    private static void appendTable(StringBuilder md, Class<?> declaredBy, List<ConfigKey<?>> keys,
                                     Map<String, Set<String>> readers) {
        md.append("### ").append(declaredBy.getSimpleName()).append("\n\n")
                .append("Declared in `").append(declaredBy.getName()).append("`.\n\n");
        md.append("| Key | Type | Default | Range | Description |").append(readers == null ? "" : " Read by |")
                .append('\n').append("|---|---|---|---|---|").append(readers == null ? "" : "---|").append('\n');
        for (ConfigKey<?> k : keys) {
            md.append("| `").append(k.name()).append("` | ").append(k.type()).append(" | `")
                    .append(cell(k.defaultText())).append("` | ").append(cell(k.range())).append(" | ")
                    .append(cell(k.description())).append(" |");
            if (readers != null) {
                md.append(' ').append(String.join(", ", readers.get(k.name()))).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** A table cell: a pipe would end the cell early. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    /** The keys, each once, grouped by declaring class in order of first appearance. */
    private static Map<Class<?>, List<ConfigKey<?>>> groupByDeclaringClass(List<ConfigKey<?>> keys) {
        Map<Class<?>, List<ConfigKey<?>>> groups = new LinkedHashMap<>();
        Set<String> seen = new LinkedHashSet<>();
        for (ConfigKey<?> key : keys) {
            if (seen.add(key.name())) {
                groups.computeIfAbsent(key.declaredBy(), c -> new ArrayList<>()).add(key);
            }
        }
        return groups;
    }

    private static Map<String, Set<String>> readersByKey(List<Role> roles) {
        Map<String, Set<String>> readers = new LinkedHashMap<>();
        for (Role role : roles) {
            for (ConfigKey<?> key : role.keys()) {
                readers.computeIfAbsent(key.name(), k -> new LinkedHashSet<>()).add(role.name());
            }
        }
        return readers;
    }

    private static Set<String> readersOf(List<ConfigKey<?>> keys, Map<String, Set<String>> readers) {
        Set<String> all = new LinkedHashSet<>();
        keys.forEach(k -> all.addAll(readers.get(k.name())));
        return all;
    }
}
