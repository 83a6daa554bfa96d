import WebImageServer

extension ServeCommand {
    /// The SETTINGS part of `serve --help`: every entry of the settings table, its flag and
    /// value, then its help wrapped and indented as ArgumentParser lists options, so a setting
    /// added to the table shows here with nothing else to change.
    static var settingsHelp: String {
        var text = "\n\nSETTINGS:"
        for setting in ImageServer.Configuration.settings {
            text += "\n  --\(setting.flag)" + (setting.valueName.map { " <\($0)>" } ?? "")
            for line in wrapped(setting.help, width: 72) {
                text += "\n        " + line
            }
        }
        return text
    }

    /// `text`'s words in lines of at most `width` characters (a longer word on a line of its own).
    private static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
