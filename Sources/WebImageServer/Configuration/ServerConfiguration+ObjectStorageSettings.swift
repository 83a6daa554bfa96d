extension ServerConfiguration {
    /// S3-compatible object storage: `s3://` sources and a result tier shared by instances.
    public struct ObjectStorageSettings: Sendable, Equatable {
        /// Whether `s3://bucket/key` sources are loaded (imgproxy's `IMGPROXY_USE_S3`); refused when off.
        public var useS3 = false
        /// The S3-compatible endpoint (`https://host[:port]`), or nil for AWS's regional one.
        public var s3Endpoint: String?
        /// The region requests to object storage are signed for (imgproxy's default).
        public var s3Region = "us-west-1"
        /// Whether the bucket is named in the path (`endpoint/bucket/key`) rather than the host.
        public var s3PathStyle = true
        /// The access key ID requests to object storage are signed with.
        public var s3AccessKeyID: SecretSetting?
        /// Its secret access key.
        public var s3SecretAccessKey: SecretSetting?
        /// The session token of temporary credentials.
        public var s3SessionToken: SecretSetting?
        /// A role assumed through STS with the credentials found (imgproxy's `IMGPROXY_S3_ASSUME_ROLE_ARN`), or nil.
        public var s3AssumeRoleARN: String?
        /// The external ID the role's trust policy asks for (`IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID`), or nil.
        public var s3AssumeRoleExternalID: String?
        /// The buckets `s3://` sources may name; empty allows any (`IMGPROXY_S3_ALLOWED_BUCKETS`).
        public var s3AllowedBuckets: [String] = []
        /// The buckets `s3://` sources may not name (`IMGPROXY_S3_DENIED_BUCKETS`).
        public var s3DeniedBuckets: [String] = []
        /// Object storage shared by instances for results (`s3://bucket[/prefix]`), the tier below
        /// Redis (or the local disk when there is no Redis), or nil for none.
        public var resultStorage: String?

        /// The defaults.
        public init() {}
    }
}
