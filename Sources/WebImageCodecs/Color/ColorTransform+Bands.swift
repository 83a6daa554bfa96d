import Dispatch
import Foundation

/// Conversion fused into a decoder's row output: each band of rows is converted right after
/// the decoder wrote it, while its bytes are still in the cache, instead of in a second pass
/// over the whole image once it is decoded.
extension ColorTransform {
    /// The bytes of one band: small enough to stay in a core's L2 cache between being decoded
    /// and being converted.
    static let bandBytes = 256 << 10

    /// Fills `bytes` (`rowBytes` a row) a band of rows at a time with `fill`, which gets the
    /// band and its row count and returns false to stop, and converts each band once filled.
    /// Returns false when `fill` stopped early (the rows after it are then left unconverted).
    ///
    /// For an image of ``bandedPixels`` or more on a machine with several cores, each filled
    /// band is converted on another thread while the decoder fills the next one, so the
    /// conversion runs beside a single-threaded decoder rather than after it; every band's
    /// conversion has ended when this method returns, whatever `fill` did.
    func convertingBands(of bytes: UnsafeMutableRawBufferPointer, rowBytes: Int,
                         fill: (UnsafeMutableRawBufferPointer, Int) -> Bool) -> Bool {
        guard rowBytes > 0, bytes.count >= rowBytes else { return fill(bytes, 0) }
        let rows = bytes.count / rowBytes
        let bandRows = max(1, min(rows, Self.bandBytes / rowBytes))
        let beside = bytes.count / 4 >= Self.bandedPixels && ProcessInfo.processInfo.activeProcessorCount > 1
        let group = DispatchGroup()
        defer { group.wait() }
        var start = 0
        while start < rows {
            let count = min(bandRows, rows - start)
            let band = UnsafeMutableRawBufferPointer(rebasing: bytes[start * rowBytes ..< (start + count) * rowBytes])
            guard fill(band, count) else { return false }
            if beside {
                let shared = SharedPixels(bytes: band)
                DispatchQueue.global().async(group: group) { self.convertBand(shared.bytes) }
            } else {
                convertBand(band)
            }
            start += count
        }
        return true
    }
}
