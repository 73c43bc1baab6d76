package io.switchboard.app.reload;

import io.switchboard.director.Director;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * How each change of a {@link ConfigDiff} applies to a running director, and in which {@link Phase}; no
 * entry for a change that needs a restart. Kept apart from the walk that finds the changes: the walk
 * says what changed and names an action, this says in which order the actions run and what one failing
 * does to the others.
 */
final class InPlaceChanges {

    /**
     * When an in-place change applies: what the virtual servers will use exists before they change,
     * and what they used goes only after.
     */
    enum Phase {
        /** Farms, reals and probes added or changed; a real's weight, maxconns, inservice. */
        ADD,
        /** Virtual servers added, removed and changed. */
        SERVERS,
        /** Reals and farms removed. */
        REMOVE
    }

    /** How a change applies in place: what completes when it has taken effect. */
    @FunctionalInterface
    interface Action {
        Future<?> apply(Director director);

        /** An action that takes effect at once. */
        static Action now(Consumer<Director> apply) {
            return d -> {
                apply.accept(d);
                return Future.succeededFuture();
            };
        }
    }

    /** How a change applies in place, and when. */
    record InPlace(Phase phase, Action apply) {
    }

    /** By identity: two changes may be equal (the same path twice) and still be two entries. */
    private final Map<ConfigChange, InPlace> inPlace = new IdentityHashMap<>();

    /** {@code change} applies by {@code apply}, or needs a restart when that is null. */
    void put(ConfigChange change, InPlace apply) {
        inPlace.put(change, apply);
    }

    /** The paths of {@code changes} a running director cannot take, in their order, each once. */
    List<String> needsRestart(List<ConfigChange> changes) {
        return changes.stream().filter(c -> inPlace.get(c) == null).map(ConfigChange::path).distinct().toList();
    }

    /**
     * Applies {@code changes} (sorted by path) phase by phase, in their order within a phase, an action that
     * several changes share once. Farms, reals and virtual servers are thread-safe, so any thread may call
     * this. Completes when every change has taken effect (a virtual server added is bound, one changed
     * serves; one removed or replaced retires after), failed with the first failure when one could not, the
     * others applied.
     *
     * @throws IllegalStateException when one of them needs a restart
     */
    Future<Void> apply(List<ConfigChange> changes, Director director) {
        List<String> restart = needsRestart(changes);
        if (!restart.isEmpty()) {
            throw new IllegalStateException("changes need a restart: " + restart);
        }
        Future<Void> chain = Future.succeededFuture();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (Phase phase : Phase.values()) {
            // A phase runs when the one before has taken effect, failed or not: what could be applied is.
            chain = chain.transform(before -> apply(phase, changes, director).otherwise(e -> {
                failures.add(e);
                return null;
            }));
        }
        return chain.compose(v -> failures.isEmpty() ? Future.succeededFuture() : Future.failedFuture(failures.get(0)));
    }

    private Future<Void> apply(Phase phase, List<ConfigChange> changes, Director director) {
        Set<Action> done = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Future<?>> applied = new ArrayList<>();
        for (ConfigChange change : changes) {
            InPlace action = inPlace.get(change);
            if (action.phase() == phase && done.add(action.apply())) {
                try {
                    applied.add(action.apply().apply(director));
                } catch (RuntimeException e) {
                    applied.add(Future.failedFuture(e));
                }
            }
        }
        return Future.all(applied).mapEmpty();
    }
}
