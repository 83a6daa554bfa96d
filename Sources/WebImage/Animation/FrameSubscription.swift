/// An iterator's registration with a player's engine, removed when the iterator goes, so that
/// the player stops waiting for it.
final class FrameSubscription: Sendable {
    let engine: PlaybackEngine
    let id: Int

    init(engine: PlaybackEngine) {
        self.engine = engine
        id = engine.subscribe()
    }

    deinit {
        engine.unsubscribe(id)
    }
}
