import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// SSIM and DSSIM against scikit-image's `structural_similarity` (Gaussian weights, sigma 1.5,
/// data range 255, population covariance, the mean over R, G and B) on the same pixels: a
/// photo against its own JPEG at two qualities and a blurred copy, each pair written as
/// lossless PNGs that both sides read.
final class StructuralSimilarityTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
    }

    /// scikit-image's SSIM of the PNGs `a` and `b`.
    private func reference(_ a: URL, _ b: URL) throws -> Double {
        guard let python = Python.interpreter(importing: "skimage, PIL, numpy") else {
            throw MachineGuard.notInstalled("a Python with scikit-image, Pillow and numpy (scripts/test installs them in .build/venv)")
        }
        let script = """
        import sys
        import numpy as np
        from PIL import Image
        from skimage.metrics import structural_similarity
        a, b = (np.asarray(Image.open(p).convert('RGB')).astype(np.float64) for p in sys.argv[1:3])
        print(repr(float(structural_similarity(a, b, channel_axis=2, gaussian_weights=True, sigma=1.5,
                                               use_sample_covariance=False, data_range=255))))
        """
        let run = try ChildProcess.run(python, ["-c", script, a.path, b.path], timeout: 120)
        guard run.status == 0, let value = Double(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            XCTFail("scikit-image failed: \(run.error.suffix(400))")
            return .nan
        }
        return value
    }

    func testIndexAndDissimilarityAreScikitImages() throws {
        let photo = try ImageCoders.shared.decode(try Fixtures.benchData("testjfif_1024.jpg")).pixels
        let original = Resampler.resize(photo, to: PixelSize(width: 256, height: 171))
        let blurred = try XCTUnwrap(GaussianBlurTransformer(radius: 2).transform(Image(pixels: original), forKey: "")).pixels
        var pairs = [("blurred", blurred)]
        for quality in [0.3, 0.85] {
            let jpeg = try ImageCoders.shared.encode(Image(pixels: original), as: .jpeg, options: ImageEncodeOptions(quality: quality))
            pairs.append(("q\(quality)", try ImageCoders.shared.decode(jpeg).pixels))
        }
        let originalFile = folder.appending("original.png")
        try ImageCoders.shared.encode(Image(pixels: original), as: .png).write(to: originalFile)
        var dissimilarities: [Double] = []
        for (name, pixels) in pairs {
            let file = folder.appending("\(name).png")
            try ImageCoders.shared.encode(Image(pixels: pixels), as: .png).write(to: file)
            let ours = try StructuralSimilarity.index(of: pixels, against: original)
            XCTAssertEqual(ours, try reference(file, originalFile), accuracy: 1e-9, name)
            dissimilarities.append(try StructuralSimilarity.dissimilarity(of: pixels, against: original))
            XCTAssertEqual(dissimilarities.last!, (1 - ours) / 2, accuracy: 1e-12)
        }
        XCTAssertGreaterThan(dissimilarities[1], dissimilarities[2], "quality 30 is further from the original than 85")
        XCTAssertEqual(try StructuralSimilarity.dissimilarity(of: original, against: original), 0, accuracy: 1e-12)
    }

    func testImagesOfTwoSizesOrTooSmallAreRefused() {
        let big = PixelBuffer(width: 20, height: 20, fill: .white)
        XCTAssertThrowsError(try StructuralSimilarity.index(of: big, against: PixelBuffer(width: 20, height: 21, fill: .white))) {
            XCTAssertEqual($0 as? ImageAnalysisError, .sizesDiffer(PixelSize(width: 20, height: 20), PixelSize(width: 20, height: 21)))
        }
        let small = PixelBuffer(width: 10, height: 30, fill: .white)
        XCTAssertThrowsError(try StructuralSimilarity.index(of: small, against: small)) {
            XCTAssertEqual($0 as? ImageAnalysisError, .imageTooSmall(width: 10, height: 30, minimum: 11))
        }
    }
}
