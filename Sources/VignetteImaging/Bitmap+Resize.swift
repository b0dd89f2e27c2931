public import VignetteCore

extension Bitmap {
    /// The bitmap resampled to `width × height` (box then Lanczos-3 down, Lanczos-3 up; alpha premultiplied).
    public func resized(width: Int, height: Int) -> Bitmap {
        guard width != self.width || height != self.height else { return self }
        let scaler = Downscaler(inWidth: self.width, inHeight: self.height, channels: 4, outWidth: width, outHeight: height)
        pixels.withUnsafeBufferPointer { px in
            scaler.push(px.baseAddress!, stride: self.width * 4, count: self.height)
        }
        return scaler.finish()
    }
}
