import Foundation

/// Handing the outcome of one shared request to every caller.
extension HTTPImageDownloader {
    /// Ends the exchange of `download` with `outcome`, starts what the queue allows, and hands
    /// the outcome to a caller waiting on a task, which decodes and completes every caller
    /// (``deliver(_:)``); without one, a task of the downloader's does.
    ///
    /// An exchange that AsyncHTTPClient refuses at once on its event loop completes inline, so
    /// completions started here can nest; but each holds an outcome waiting to be handed out,
    /// and at ``DownloadScheduler/handingOutLimits`` a request keeps its slot
    /// (``DownloadScheduler/exchangeEnded(_:)``): the nesting stops there.
    func complete(_ download: DownloadRequest, with outcome: FetchOutcome) {
        switch outcome {
        case .success(let fetched): download.notify(.finished, status: fetched.response.statusCode, bytes: fetched.data.count)
        case .failure(let error): download.notify(.failed, error: error)
        }
        let deliverer = startReadyOperations { state in
            state.exchangeEnded(download.operation, bytes: (try? outcome.get().data.count) ?? 0)
            return state.takeDeliverer(of: download.operation)
        }
        let delivery = DownloadDelivery(request: download, outcome: outcome, deliverer: deliverer)
        guard let deliverer else {
            Task { _ = deliver(delivery) }
            return
        }
        deliverer.handOut(delivery)
    }

    /// Decodes the bytes of `delivery` once per distinct decode options and completes every
    /// caller of its request, including callers that join while decoding is under way; or
    /// completes them with its error. The request then frees its slot, and what the queue allows
    /// starts. Returns the deliverer's result (nil without one), which is not completed: the
    /// deliverer returns it.
    func deliver(_ delivery: DownloadDelivery) -> Result<DownloadResult, WebImageError>? {
        let operation = delivery.request.operation
        let deliverer = delivery.deliverer
        switch delivery.outcome {
        case .failure(let error):
            let (callers, timedOut) = startReadyOperations { state in
                let timedOut = state.timedOut(operation)
                return (state.finish(operation), timedOut)
            }
            // The idle watchdog stops a silent request by cancelling it.
            let reported = timedOut ? WebImageError.timedOut(seconds: configuration.effectiveTimeout) : error
            for caller in callers { caller.complete(.failure(reported)) }
            return deliverer.map { _ in .failure(reported) }
        case .success(let body):
            return deliver(body.data, response: body.response, of: operation, to: deliverer,
                           decryptor: delivery.request.options.decryptor)
        }
    }

    private func deliver(_ data: Data, response: ImageLoadResponse, of operation: UInt64,
                         to deliverer: DownloadCaller?, decryptor: ImageDataDecryptor?) -> Result<DownloadResult, WebImageError>? {
        let payload = LoadedDataDecoder.decrypt(data, with: decryptor, response: response)
        // One decode per distinct key; callers rarely differ, so a list is searched.
        var decoded: [(key: DownloadCaller.DecodeKey, result: Result<Image, WebImageError>)] = []
        func decodedResult(for key: DownloadCaller.DecodeKey) -> Result<Image, WebImageError>? {
            decoded.first { $0.key == key }?.result
        }
        func decode(for callers: [DownloadCaller]) {
            for caller in callers {
                guard let key = caller.decodeKey, decodedResult(for: key) == nil else { continue }
                decoded.append((key, payload.flatMap { LoadedDataDecoder.decode($0, coders: caller.coders, options: key.options) }))
            }
        }
        /// Decodes for the callers waiting, again for those who joined meanwhile, until the
        /// request ends with every caller's decode done; returns the callers to complete.
        func decodeUntilFinished() -> [DownloadCaller] {
            while true {
                let done = decoded.map(\.key)
                let (waiting, finished) = startReadyOperations { $0.undecodedCallers(of: operation, notIn: done) }
                if let finished { return finished }
                decode(for: waiting)
            }
        }
        if let deliverer { decode(for: [deliverer]) }
        let callers = decodeUntilFinished()
        let final = ImageLoadingProgress(receivedBytes: data.count, expectedBytes: response.expectedContentLength ?? data.count)
        func result(for caller: DownloadCaller) -> Result<DownloadResult, WebImageError> {
            if caller.lastReceivedBytes < data.count { caller.events?(.progress(final)) }
            // The bytes the image was decoded from: what the decryptor made, as SDWebImage caches.
            let body = payload.map { ImageDataLoadResult(data: $0, response: response) }
            guard let key = caller.decodeKey else { return body.map { DownloadResult(image: nil, body: $0) } }
            let image = decodedResult(for: key) ?? .failure(.badImageData(.empty))
            return image.flatMap { image in body.map { DownloadResult(image: image, body: $0) } }
        }
        for caller in callers { caller.complete(result(for: caller)) }
        return deliverer.map(result(for:))
    }

    /// Counts the progress of `download` for the idle watchdog, and sends a progress event to
    /// the callers that are due one. Without callers that listen, the lock is not taken.
    func reportProgress(of download: DownloadRequest, received: Int, expected: Int?) {
        download.noteActivity()
        guard download.hasListeners else { return }
        let now = ContinuousClock.now
        let handlers = state.withLock {
            $0.progressHandlers(of: download.operation, received: received, expected: expected, now: now)
        }
        let progress = ImageLoadingProgress(receivedBytes: received, expectedBytes: expected)
        for handler in handlers { handler(.progress(progress)) }
    }

    /// Decodes the bytes so far into a partial image for each distinct decode options of the
    /// progressive callers of `download`, and sends it to them.
    func reportPartialImage(of download: DownloadRequest, data: Data) {
        let callers = state.withLock { $0.progressiveCallers(of: download.operation) }
        for group in Dictionary(grouping: callers, by: \.decodeKey).values {
            let first = group[0]
            guard let options = first.decodeKey?.options, let coder = first.coders.progressiveCoder(for: data),
                  var image = coder.decodePartial(data, options: options)
            else { continue }
            image.isIncomplete = true
            for caller in group { caller.events?(.partialImage(image)) }
        }
    }
}
