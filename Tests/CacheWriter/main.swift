import Foundation
import WebImage
import WebImageTestSupport

// cache-writer FOLDER IMAGE PREFIX COUNT
//
// Opens a DiskCache over FOLDER and stores COUNT entries one after another: entry i has the
// key CacheWriterEntry.key(prefix: PREFIX, index: i) and the bytes of the file IMAGE followed
// by the key (CacheWriterEntry.data). Each key is printed on standard output, in one unbuffered
// write, only after `store` returned: a printed key is an entry the cache has promised to keep.
// The crash tests kill this process with SIGKILL at random moments and check the folder.
let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[4]), let image = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: cache-writer FOLDER IMAGE PREFIX COUNT (IMAGE readable)\n".utf8))
    exit(2)
}
let cache = try DiskCache(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
for index in 0..<count {
    let key = CacheWriterEntry.key(prefix: arguments[3], index: index)
    do {
        try cache.store(CacheWriterEntry.data(image: image, key: key), forKey: key)
    } catch {
        FileHandle.standardError.write(Data("cache-writer: \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data((key + "\n").utf8))
}
