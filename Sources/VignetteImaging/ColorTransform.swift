import CVignetteCodecs
import Foundation
import Synchronization
import VignetteCore

/// A conversion from an embedded ICC profile to sRGB (LittleCMS), built once per profile and kept.
///
/// RGB pictures are converted after the shrink, on the thumbnail: the transform then costs
/// thousands of pixels instead of millions, and resampling in the source space first moves
/// colours by far less than the conversion itself does (see `ColorManagementTests`). CMYK
/// JPEGs go through it row by row in the shim, since their samples are gone once they are RGB.
final class ColorTransform: @unchecked Sendable {
    /// The pixel layout converted from.
    enum Layout: Int32 {
        case rgba = 0, cmyk = 1, cmykInverted = 2
    }

    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { vgn_icc_close(handle) }

    /// Converts an RGBA bitmap in place.
    func apply(to bitmap: inout Bitmap) {
        let count = bitmap.width * bitmap.height
        bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            vgn_icc_apply(handle, base, base, count)
        }
    }

    /// The transform from `profile` to sRGB, or nil when none is needed (an sRGB profile) or
    /// possible (a profile LittleCMS cannot use, or one for another colour space): then the
    /// pixels are shown as they are, as a viewer without colour management would.
    static func toSRGB(_ profile: UnsafeRawBufferPointer, layout: Layout) -> ColorTransform? {
        guard let base = profile.baseAddress, profile.count > 0 else { return nil }
        let key = Key(bytes: Array(profile), layout: layout)
        if let cached = cache.withLock({ $0[key] }) { return cached.transform }
        var srgb: Int32 = 0
        var err = vgn_error()
        let made = vgn_icc_open(base.assumingMemoryBound(to: UInt8.self), profile.count, layout.rawValue, &srgb, nil, 0, &err)
            .map { ColorTransform(handle: $0) }
        cache.withLock { entries in
            // A handful of profiles covers real folders; a stream of distinct ones only refills.
            if entries.count >= 32 { entries.removeAll() }
            entries[key] = Entry(transform: made)
        }
        return made
    }

    /// A cache key: the profile's bytes and the layout they are read in.
    struct Key: Hashable {
        var bytes: [UInt8]
        var layout: Layout
    }

    /// A cached answer (nil: the profile needs or allows no conversion).
    struct Entry {
        var transform: ColorTransform?
    }

    static let cache = Mutex<[Key: Entry]>([:])
}
