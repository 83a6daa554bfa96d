/// What the player does next.
enum PlaybackStep {
    /// Show the frame of step `position` at time `due` on the player's clock.
    case show(position: Int, due: Duration)
    /// The last loop is over at time `at`: stop there.
    case finish(at: Duration)
}
