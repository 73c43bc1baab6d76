package io.switchboard.app;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

/**
 * The director's own saturation, for the alerts of packaging/prometheus: Micrometer's JVM and process
 * binders (heap and its pools, GC pauses and overhead, threads, CPU, uptime, file descriptors), and
 * the tasks queued on each Vert.x event loop ({@code switchboard_event_loop_pending_tasks}), which is
 * where the packet path runs: a loop that cannot keep up shows here before anything is dropped.
 */
final class ProcessMeters implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final JvmHeapPressureMetrics heapPressure = new JvmHeapPressureMetrics();

    ProcessMeters(MeterRegistry registry, Vertx vertx) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        heapPressure.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        int index = 0;
        for (EventExecutor executor : ((VertxInternal) vertx).nettyEventLoopGroup()) {
            if (executor instanceof SingleThreadEventExecutor loop) {
                // pendingTasks() reads the size of the loop's MPSC queue: a few loads, no lock, no wait.
                Gauge.builder("switchboard.event.loop.pending.tasks", loop, SingleThreadEventExecutor::pendingTasks)
                        .tag("loop", Integer.toString(index))
                        .description("Tasks waiting on each event loop of the director")
                        .register(registry);
            }
            index++;
        }
    }

    /** Stops listening for GC notifications (several nodes may run in one test JVM). */
    @Override
    public void close() {
        gc.close();
        heapPressure.close();
    }
}
