import ArgumentParser
import WebImageServer

/// `--url-format imgproxy|thumbor|both`.
extension ServedURLFormat: ExpressibleByArgument {}
