extension ServerConfiguration {
    /// Where in AWS more variables are kept, read over the environment's before the settings
    /// are (imgproxy's `IMGPROXY_ENV_AWS_*`). `webimage serve` reads them
    /// (`WebImageObjectStorage`'s `AWSConfigurationStores`); an app embedding the server lays
    /// such variables into the environment it passes itself.
    public struct EnvironmentStores: Sendable, Equatable {
        /// The Secrets Manager secret of `.env` text (`IMGPROXY_ENV_AWS_SECRET_ID`), or nil.
        public var secretID: String?
        /// Its version (`IMGPROXY_ENV_AWS_SECRET_VERSION_ID`), over ``secretVersionStage``.
        public var secretVersionID: String?
        /// Its stage (`IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE`, `AWSCURRENT` by AWS's default).
        public var secretVersionStage: String?
        /// The secret's region (`IMGPROXY_ENV_AWS_SECRET_REGION`), else `AWS_REGION`'s.
        public var secretRegion: String?
        /// The Systems Manager path whose parameters are variables (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`), or nil.
        public var parametersPath: String?
        /// Its region (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION`), else `AWS_REGION`'s.
        public var parametersRegion: String?

        /// Whether any store is named.
        public var namesAny: Bool { secretID != nil || parametersPath != nil }

        /// The defaults: none.
        public init() {}
    }
}
