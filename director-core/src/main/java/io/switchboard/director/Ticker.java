package io.switchboard.director;

/**
 * The engine's clock: monotonic nanoseconds. Every timer of the engine (sticky idle, pending expiry,
 * retry) reads it, so tests drive time by hand instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

    Ticker SYSTEM = System::nanoTime;

    long nanos();
}
