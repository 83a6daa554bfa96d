#if canImport(Glibc)
import Glibc
#endif

extension PixelBuffer {
    /// Buffers at least this large are offered transparent huge pages.
    static let hugePageThreshold = 8 << 20

    /// Asks the kernel to back the fresh, still untouched `buffer` with transparent huge pages
    /// when it is large (a full-size decode of a 12 MP photo is 48 MB).
    ///
    /// Such a buffer comes straight from `mmap`, so filling it faults in one 4 KiB page at a
    /// time: 12,000 faults, a third of a JPEG decode's time. In 2 MiB pages it takes a few dozen.
    /// Linux honours the advice when `/sys/kernel/mm/transparent_hugepage/enabled` is `always`
    /// or `madvise` (Debian's default); elsewhere it does nothing. Codecs call this before they
    /// write the pixels of a decode.
    public static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= hugePageThreshold, let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + buffer.count) / page * page
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }
}
