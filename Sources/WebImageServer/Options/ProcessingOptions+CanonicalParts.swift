import WebImage

extension ProcessingOptions {
    /// imgproxy's `brightness`, `contrast` and `saturation` as adjustments, each only when it
    /// changes something.
    var imgproxyAdjustments: [ColorAdjustment] {
        var adjustments: [ColorAdjustment] = []
        if brightness != 0 { adjustments.append(.brightnessOffset(brightness)) }
        if contrast != 1 { adjustments.append(.contrastScale(contrast)) }
        if saturation != 1 { adjustments.append(.luminanceSaturation(saturation)) }
        return adjustments
    }

    /// The canonical key's parts for the geometry and filter options that are off by default,
    /// each present only when it is on, so that keys of URLs without them stay as they were.
    var geometryKeyParts: [String] {
        var parts: [String] = []
        if extend || extendGravity != nil { parts.append("ex:\(extend ? 1 : 0):\(extendGravity?.canonical ?? "floor")") }
        if extendAspectRatio || extendAspectRatioGravity != .centre {
            parts.append("exar:\(extendAspectRatio ? 1 : 0):\(extendAspectRatioGravity.canonical)")
        }
        if minWidth > 0 || minHeight > 0 { parts.append("min:\(minWidth):\(minHeight)") }
        if zoomX != 1 || zoomY != 1 { parts.append("z:\(CanonicalNumber.spell(zoomX)):\(CanonicalNumber.spell(zoomY))") }
        if maxResultDimension > 0 { parts.append("mrd:\(maxResultDimension)") }
        if !sourceLimits.isEmpty { parts.append(sourceLimits.canonical) }
        if firstFrameOnly { parts.append("cover") }
        if opaquePNGToJPEG { parts.append("png2jpg" + formatsOpaquePNGToJPEGOutranks.map { ">" + $0.rawValue }.joined()) }
        if resultProportion != 1 { parts.append("prop:\(CanonicalNumber.spell(resultProportion))") }
        if !padding.isEmpty { parts.append("pd:\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)") }
        if flipHorizontal || flipVertical { parts.append("fl:\(flipHorizontal ? 1 : 0):\(flipVertical ? 1 : 0)") }
        if let trim {
            let colour = trim.colour.map { "\($0.r).\($0.g).\($0.b)" } ?? (trim.fromBottomRight ? "bottom-right" : "corner")
            parts.append("t:\(CanonicalNumber.spell(trim.threshold)):\(colour):\(trim.equalHorizontal ? 1 : 0):\(trim.equalVertical ? 1 : 0)")
        }
        if sharpenSigma > 0 { parts.append("sh:\(CanonicalNumber.spell(sharpenSigma))") }
        if pixelateSize > 1 { parts.append("pix:\(pixelateSize)") }
        if widthFromSource || heightFromSource || adaptsToOrientation || !cropsFill {
            parts.append("tsz:\(widthFromSource ? 1 : 0):\(heightFromSource ? 1 : 0):\(adaptsToOrientation ? 1 : 0):\(cropsFill ? 1 : 0)")
        }
        if backgroundIsAverage { parts.append("bg:auto") }
        if cornerRadius > 0 {
            parts.append("rc:\(cornerRadius)" + (cornerVerticalRadius.map { "|\($0)" } ?? "") + ":" + (cornerFill.map { "\($0.r).\($0.g).\($0.b)" } ?? "clear"))
        }
        if !colorAdjustments.isEmpty { parts.append("ca:" + colorAdjustments.map(\.key).joined(separator: ",")) }
        if brightness != 0 || contrast != 1 || saturation != 1 {
            parts.append("a:\(brightness):\(CanonicalNumber.spell(contrast)):\(CanonicalNumber.spell(saturation))")
        }
        parts += [monochrome, duotone].compactMap { $0?.key } + [colorize, gradient].compactMap { $0?.key }
        if cropAspectRatio > 0 { parts.append("car:\(CanonicalNumber.spell(cropAspectRatio)):\(cropAspectRatioEnlarges ? 1 : 0)") }
        if page != 0 || pages != 1 { parts.append("pg:\(page):\(pages)") }
        if disablesAnimation { parts.append("da") }
        if let requiredHashsum { parts.append(requiredHashsum.canonical) }
        if resizingAlgorithm != .lanczos3 { parts.append("ra:\(resizingAlgorithm.rawValue)") }
        if let canonical = unsharpMasking.canonical { parts.append(canonical) }
        if let blurAreas { parts.append(blurAreas.canonical) }
        if let progressiveBlur { parts.append("pbl:" + progressiveBlur.key) }
        if backgroundAlpha != 1 { parts.append("bga:\(CanonicalNumber.spell(backgroundAlpha))") }
        if let watermark {
            parts.append(watermark.canonical)
            // Length-prefixed: a URL may hold `/`, which joins the key's parts.
            if let watermarkURL { parts.append("wmu:\(watermarkURL.absoluteString.utf8.count):" + watermarkURL.absoluteString) }
            if let watermarkText { parts.append("wmt:" + URLSafeBase64.encode(Array(watermarkText.utf8))) }
            if let canonical = watermarkStyle.canonical { parts.append(canonical) }
        }
        parts += thumborOverlays.map(\.canonical)
        if !convolutions.isEmpty { parts.append("cv:" + convolutions.map(\.key).joined(separator: ",")) }
        if fillsWithBlur { parts.append("bg:blur") }
        if !focalRegions.isEmpty { parts.append("fp:" + focalRegions.map { "\($0.x).\($0.y).\($0.width).\($0.height)" }.joined(separator: ",")) }
        if let meta { parts.append("meta:\(meta.canonical)") }
        if let info { parts.append("info:\(info.canonical)") }
        return parts
    }

    /// The canonical key's parts for the output options that are off by default.
    var outputKeyParts: [String] {
        var parts: [String] = []
        if !formatQuality.isEmpty {
            parts.append("fq:" + formatQuality.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue).\($0.value)" }.joined(separator: ","))
        }
        if maxBytes > 0 { parts.append("mb:\(maxBytes)") }
        if progressiveJPEG { parts.append("pj:1") }
        if interlacedPNG { parts.append("ip:1") }
        if let pngPaletteColors { parts.append("pq:\(pngPaletteColors)") }
        if let canonical = encoding.canonical { parts.append(canonical) }
        if let canonical = autoquality.canonical { parts.append(canonical) }
        if bestFormat { parts.append(bestFormatSettings.canonical) }
        if let colorProfile { parts.append("cp:\(colorProfile)") }
        if let svgStyle { parts.append("st:" + URLSafeBase64.encode(Array(svgStyle.utf8))) }
        if !preferredFormats.isEmpty { parts.append("pf:" + preferredFormats.map(\.rawValue).joined(separator: ",")) }
        if !skipProcessing.isEmpty { parts.append("skp:" + skipProcessing.map(\.rawValue).sorted().joined(separator: ",")) }
        if !stripColorProfile { parts.append("scp:0") }
        if !keepCopyright { parts.append("kcr:0") }
        if !shrinksOnLoad { parts.append("sol:0") }
        if linearLight { parts.append("lin:1") }
        if enforceThumbnail { parts.append("eth:1") }
        if webpLossless { parts.append("wl:1") }
        if let gifVideo { parts.append("gifv:\(gifVideo)") }
        if let thumborSourceBound { parts.append(thumborSourceBound.canonical) }
        return parts
    }
}
