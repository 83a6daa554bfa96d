#if canImport(Glibc)
import Glibc
#endif

/// How `webimage serve` asks glibc's allocator to hand memory back.
///
/// glibc serves a block over its mmap threshold with `mmap` and unmaps it when freed, but raises
/// the threshold (up to 32 MiB) each time such a block is freed, so that later blocks of that
/// size come from the heap of whichever of its arenas (up to eight per core) the thread uses,
/// and stay there. A server decoding on many threads then keeps every arena's largest decode:
/// 16 WebP → WebP requests of 2040 × 1360 photos, four at a time, peaked at 145 MiB where the
/// same requests from JPEG sources peaked at 60. With the threshold fixed at 4 MiB, image-sized
/// blocks are always mapped and returned: 54 MiB. (At glibc's initial 128 KiB it was 61 MiB, and
/// every smaller buffer was faulted in anew too: PNG → PNG took 10 ms more system time a request.)
enum MallocTuning {
    /// `M_MMAP_THRESHOLD` of `<malloc.h>`, a macro Swift does not import.
    private static let mmapThreshold: Int32 = -3

    /// Fixes the mmap threshold at 4 MiB, unless the environment sets glibc's own
    /// `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_`, whose choice stands.
    static func returnLargeBlocks(environment: [String: String]) {
        #if canImport(Glibc)
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil, environment["MALLOC_TRIM_THRESHOLD_"] == nil,
              // `mallopt` is declared in <malloc.h>, which Swift's Glibc module leaves out:
              // looked up in the process's own symbols (RTLD_DEFAULT is the null handle).
              let symbol = dlsym(nil, "mallopt")
        else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 4 << 20)
        #endif
    }
}
