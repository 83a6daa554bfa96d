/// A clock reduced to what playback needs: the time since the player was made, and a sleep
/// until such a time. Any `Clock` measured in `Duration` fits, so tests drive a player with
/// a clock of their own.
struct PlaybackClock: Sendable {
    /// The time since the clock was wrapped.
    let now: @Sendable () -> Duration
    /// Sleeps until `now()` reaches the given time; throws when the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`, taking its present instant as time zero.
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    }
}
