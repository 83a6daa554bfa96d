extension PixelSize {
    /// This size scaled down to fit inside `limit`, keeping the aspect ratio (sides rounded,
    /// at least 1): 5250×3450 within 4000×4000 is 4000×2629. A size already inside, or a limit
    /// with a side under 1, leaves it as it is; it is never scaled up.
    public func fitting(within limit: PixelSize) -> PixelSize {
        guard limit.width > 0, limit.height > 0, width > 0, height > 0,
              width > limit.width || height > limit.height else { return self }
        let scale = min(Double(limit.width) / Double(width), Double(limit.height) / Double(height))
        return scaled(by: scale)
    }
}
