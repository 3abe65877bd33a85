package io.shardvault.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.config.ConfigKey;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a {@code *ConfigKeys} class follows the pattern every module uses: each public
 * constant is a {@link ConfigKey} with a unique dotted name and a description, and {@code all()}
 * lists exactly those constants (so {@code rejectUnknown} knows every key).
 */
public final class ConfigKeysConventions {
    private ConfigKeysConventions() {
    }

    public static void assertWellFormed(Class<?> keysClass) throws ReflectiveOperationException {
        assertThat(keysClass.getSimpleName()).endsWith("ConfigKeys");
        Set<ConfigKey<?>> declared = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (Field field : keysClass.getDeclaredFields()) {
            int mod = field.getModifiers();
            if (!Modifier.isStatic(mod) || field.isSynthetic()) {
                continue;
            }
            assertThat(Modifier.isPublic(mod) && Modifier.isFinal(mod))
                    .as("%s.%s is public static final", keysClass.getSimpleName(), field.getName()).isTrue();
            assertThat(field.getType()).as(field.getName()).isEqualTo(ConfigKey.class);
            ConfigKey<?> key = (ConfigKey<?>) field.get(null);
            assertThat(key.name()).as(field.getName()).matches("[a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)+");
            assertThat(names.add(key.name())).as("duplicate key %s", key.name()).isTrue();
            assertThat(key.description()).as("description of %s", key.name()).isNotBlank().endsWith(".");
            declared.add(key);
        }
        assertThat(declared).as("%s declares keys", keysClass.getSimpleName()).isNotEmpty();
        Method all = keysClass.getMethod("all");
        @SuppressWarnings("unchecked")
        List<ConfigKey<?>> listed = (List<ConfigKey<?>>) all.invoke(null);
        assertThat(new HashSet<>(listed)).as("%s.all() lists every key", keysClass.getSimpleName())
                .isEqualTo(declared);
    }
}
