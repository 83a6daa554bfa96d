extension ServerConfiguration {
    /// Every setting, in the order `serve --help` and the Configuration article (WebImageServer.docc) list them:
    /// how connections, URLs, sources and limits are taken, then what is answered, kept and logged.
    public static let settings: [ServerSetting] = requestsTable + answersTable
}
