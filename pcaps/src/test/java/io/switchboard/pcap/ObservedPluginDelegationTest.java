package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.TransactionPlugin;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What-if observes a plug-in by wrapping it: a method of the SPI the wrapper does not override falls
 * back to the interface's default instead of the plug-in's own answer, and what-if then decides
 * differently from the live director without any test noticing (a plug-in's {@code realRequests()}
 * not passed on makes every relayed request fail). Every SPI method must be delegated.
 */
class ObservedPluginDelegationTest {

    @Test
    void theWrappersOverrideEveryMethodOfTheSpi() {
        assertThat(undelegated(DatagramPlugin.class, ObservedPlugin.class)).isEmpty();
        assertThat(undelegated(TransactionPlugin.class, ObservedTransactionPlugin.class)).isEmpty();
    }

    private static List<String> undelegated(Class<?> spi, Class<?> wrapper) {
        List<String> missing = new ArrayList<>();
        for (Method m : spi.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                Method found = wrapper.getMethod(m.getName(), m.getParameterTypes());
                if (found.getDeclaringClass().isInterface()) {
                    missing.add(m.getName());
                }
            } catch (NoSuchMethodException e) {
                missing.add(m.getName());
            }
        }
        return missing;
    }
}
