import Foundation
import WebImage

/// Writes the demo's thumbnails (one PNG each) and the contact sheet of all of them.
struct DemoOutput {
    let folder: URL
    let coders: ImageCoders

    /// Where the files went.
    struct Written {
        let thumbnails: URL
        let contactSheet: URL
    }

    /// Writes each thumbnail as `<name>.png` and the sheet of all of them, `cell` pixels a cell.
    func write(thumbnails: [(name: String, image: Image)], cell: Int) throws -> Written {
        let thumbnailFolder = folder.appendingPathComponent("thumbnails", isDirectory: true)
        try FileManager.default.createDirectory(at: thumbnailFolder, withIntermediateDirectories: true)
        for (name, image) in thumbnails {
            let still = Image(pixels: image.pixels)
            let file = thumbnailFolder.appendingPathComponent(name).deletingPathExtension().appendingPathExtension("png")
            try coders.encode(still, as: .png).write(to: file, options: .atomic)
        }
        let sheet = ContactSheet(columns: min(6, max(1, thumbnails.count)), cell: cell, gap: 12).render(thumbnails.map(\.image))
        let sheetFile = folder.appendingPathComponent("contact-sheet.png")
        try coders.encode(Image(pixels: sheet), as: .png).write(to: sheetFile, options: .atomic)
        return Written(thumbnails: thumbnailFolder, contactSheet: sheetFile)
    }
}
