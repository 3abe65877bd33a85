package io.shardvault.common.jmx;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Objects;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.StandardMBean;

/**
 * An MXBean whose MBeanInfo carries the {@link Description}s of its interface: the one way every
 * shardvault MXBean gets readable descriptions and parameter names in JConsole. Operations named
 * {@code get...}/{@code is...}/{@code list...} are reported as {@link MBeanOperationInfo#INFO}, the
 * others as {@link MBeanOperationInfo#ACTION}.
 *
 * <p>Thread-safe as far as the wrapped implementation is.
 */
public final class DescribedMXBean<T> extends StandardMBean {
    private final Class<T> iface;

    /** Wraps {@code impl}, which implements the MXBean interface {@code iface}. */
    public DescribedMXBean(T impl, Class<T> iface) {
        super(Objects.requireNonNull(impl, "impl"), Objects.requireNonNull(iface, "iface"), true);
        this.iface = iface;
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        Description d = iface.getAnnotation(Description.class);
        return d != null ? d.value() : super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        for (String prefix : new String[] {"get", "is"}) {
            Method m = find(prefix + info.getName(), 0);
            if (m != null && m.getAnnotation(Description.class) != null) {
                return m.getAnnotation(Description.class).value();
            }
        }
        return super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanOperationInfo info) {
        Method m = find(info.getName(), info.getSignature().length);
        return m != null && m.getAnnotation(Description.class) != null ? m.getAnnotation(Description.class).value()
                : super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        Description d = parameter(op, sequence);
        return d != null ? d.value() : super.getDescription(op, param, sequence);
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        Description d = parameter(op, sequence);
        return d != null && !d.name().isEmpty() ? d.name() : super.getParameterName(op, param, sequence);
    }

    @Override
    protected int getImpact(MBeanOperationInfo info) {
        String name = info.getName();
        return name.startsWith("get") || name.startsWith("is") || name.startsWith("list")
                ? MBeanOperationInfo.INFO : MBeanOperationInfo.ACTION;
    }

    private Description parameter(MBeanOperationInfo op, int sequence) {
        Method m = find(op.getName(), op.getSignature().length);
        if (m == null) {
            return null;
        }
        Parameter[] params = m.getParameters();
        return sequence < params.length ? params[sequence].getAnnotation(Description.class) : null;
    }

    /** The interface method by name and arity (our MXBeans do not overload by type). */
    private Method find(String name, int arity) {
        for (Method m : iface.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == arity) {
                return m;
            }
        }
        return null;
    }
}
