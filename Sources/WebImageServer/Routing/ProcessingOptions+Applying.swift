import Foundation
import WebImage

extension ProcessingOptions {
    /// Applies one option other than `preset` (the parser expands presets) to these options,
    /// checking its arguments against `limits`.
    mutating func apply(_ name: ProcessingOptionName, _ arguments: OptionArguments,
                        limits: ProcessingURLLimits) throws(ProcessingURLError) {
        if name == .pipeline {
            try arguments.expectCount(0, 0)
            guard chained.count < limits.maxPipelines || pipelineCursor < chained.count else {
                throw arguments.fail("more than \(limits.maxPipelines) chained pipelines")
            }
            pipelineCursor += 1
            if pipelineCursor > chained.count { chained.append(ProcessingOptions()) }
            return
        }
        if pipelineCursor > 0, !name.belongsToWholeURL {
            try chained[pipelineCursor - 1].apply(name, arguments, limits: limits)
            return
        }
        let dimension = 0...limits.maxDimension
        switch name {
        case .resize:
            try arguments.expectCount(1, 8)
            if arguments.has(0) { resizingType = try Self.resizingType(arguments, 0) }
            try applySize(arguments, from: 1, dimension: dimension)
        case .size:
            try arguments.expectCount(1, 7)
            try applySize(arguments, from: 0, dimension: dimension)
        case .resizingType:
            try arguments.expectCount(1, 1)
            resizingType = try Self.resizingType(arguments, 0)
        case .width:
            try arguments.expectCount(1, 1)
            width = try arguments.integer(0, in: dimension)
        case .height:
            try arguments.expectCount(1, 1)
            height = try arguments.integer(0, in: dimension)
        case .dpr:
            try arguments.expectCount(1, 1)
            dpr = try arguments.decimal(0, in: 0...limits.maxDPR)
            guard dpr > 0 else { throw arguments.fail("must be above 0") }
        case .enlarge:
            try arguments.expectCount(1, 1)
            enlarge = try arguments.boolean(0)
        case .gravity:
            gravity = try Self.gravity(arguments, from: 0)
        case .extend:
            (extend, extendGravity) = try Self.extend(arguments, from: 0)
        case .extendAspectRatio:
            (extendAspectRatio, extendAspectRatioGravity) = try Self.extend(arguments, from: 0)
        case .quality:
            try arguments.expectCount(1, 1)
            quality = try arguments.integer(0, in: 0...100)
        case .format:
            try arguments.expectCount(1, 1)
            try setFormat(named: arguments.values[0])
        case .blur:
            try arguments.expectCount(1, 1)
            blurSigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
        case .rotate:
            try arguments.expectCount(1, 1)
            let angle = try arguments.integer(0, in: -3600...3600)
            guard angle % 90 == 0 else { throw arguments.fail("\(angle) is not a multiple of 90") }
            rotation = (angle % 360 + 360) % 360
        case .background:
            background = try Self.background(arguments)
        case .crop:
            // The height may be left out, as imgproxy reads it: 0, the whole height.
            try arguments.expectCount(1, 5)
            let side = 0...Double(limits.maxDimension)
            let cropGravity = arguments.values.count > 2 ? try Self.gravity(arguments, from: 2) : nil
            let height = arguments.values.count > 1 ? try arguments.decimal(1, in: side) : 0
            crop = ProcessingCrop(width: try arguments.decimal(0, in: side), height: height, gravity: cropGravity)
        case .autoRotate:
            try arguments.expectCount(1, 1)
            autoRotate = try arguments.boolean(0)
        case .stripMetadata:
            try arguments.expectCount(1, 1)
            stripMetadata = try arguments.boolean(0)
        case .stripColorProfile:
            try arguments.expectCount(1, 1)
            stripColorProfile = try arguments.boolean(0)
        case .keepCopyright:
            try arguments.expectCount(1, 1)
            keepCopyright = try arguments.boolean(0)
        case .enforceThumbnail:
            try arguments.expectCount(1, 1)
            enforceThumbnail = try arguments.boolean(0)
        case .preserveHDR:
            // Accepted for compatibility: pixels are 8-bit.
            try arguments.expectCount(1, 1)
            _ = try arguments.boolean(0)
        case .cacheBuster:
            try arguments.expectCount(1, 1)
            let text = try arguments.text(0)
            cacheBuster = text.isEmpty ? nil : text
        case .expires:
            try arguments.expectCount(1, 1)
            // Any 64-bit time, as imgproxy's int64: one in the past is simply expired.
            expires = try arguments.integer(0, in: Int.min...Int.max, digits: 20)
        case .filename:
            try arguments.expectCount(1, 2)
            let encoded = arguments.has(1) ? try arguments.boolean(1) : false
            filename = try Self.filename(arguments, encoded: encoded)
        case .returnAttachment:
            try arguments.expectCount(1, 1)
            returnAttachment = try arguments.boolean(0)
        case .preset:
            throw arguments.fail("presets are expanded by the parser")
        default:
            try applyExtra(name, arguments, limits: limits)
        }
    }
}
