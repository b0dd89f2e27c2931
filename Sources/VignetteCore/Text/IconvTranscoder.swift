import Glibc

/// Converts bytes in any encoding glibc knows to UTF-8, replacing bad sequences with U+FFFD.
///
/// Each call opens its own `iconv_t`, so calls are thread-safe; iconv's conversion state is
/// never shared.
enum IconvTranscoder {
    /// The UTF-8 bytes of U+FFFD REPLACEMENT CHARACTER.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The UTF-8 for `bytes` in `encoding` and the number of invalid sequences met, or nil when
    /// iconv does not know the encoding.
    ///
    /// An invalid sequence becomes one U+FFFD and decoding resumes `unitSize` bytes later. A
    /// sequence cut by the end of the bytes is dropped when `complete` is false (the sample was
    /// cut there) and counts as invalid when it is true.
    static func utf8(_ bytes: ArraySlice<UInt8>, from encoding: String, unitSize: Int = 1, complete: Bool)
        -> (utf8: [UInt8], invalid: Int)?
    {
        let cd = iconv_open("UTF-8", encoding)
        guard let cd, Int(bitPattern: cd) != -1 else { return nil }
        defer { iconv_close(cd) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2 + 16)
        var invalid = 0
        var input = Array(bytes)
        var chunk = [UInt8](repeating: 0, count: 1 << 15)
        input.withUnsafeMutableBufferPointer { inBuffer in
            chunk.withUnsafeMutableBufferPointer { outBuffer in
                let chunkSize = outBuffer.count
                let outBase = UnsafeMutableRawPointer(outBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                var inPointer: UnsafeMutablePointer<CChar>? =
                    inBuffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
                var inLeft = inBuffer.count
                func drain(_ outLeft: Int) {
                    output.append(contentsOf: outBuffer[0..<(chunkSize - outLeft)])
                }
                while inLeft > 0 {
                    var outPointer: UnsafeMutablePointer<CChar>? = outBase
                    var outLeft = chunkSize
                    let result = iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft)
                    let error = errno
                    drain(outLeft)
                    if result != -1 { break }
                    switch error {
                    case E2BIG:
                        continue
                    case EINVAL:
                        // An incomplete sequence at the very end.
                        if complete {
                            invalid += 1
                            output.append(contentsOf: replacement)
                        }
                        inLeft = 0
                    default:
                        invalid += 1
                        output.append(contentsOf: replacement)
                        let skip = min(unitSize, inLeft)
                        inPointer = inPointer.map { $0 + skip }
                        inLeft -= skip
                    }
                }
                // Stateful encodings (ISO-2022) may owe a final shift sequence's worth of output.
                var outPointer: UnsafeMutablePointer<CChar>? = outBase
                var outLeft = chunkSize
                _ = iconv(cd, nil, nil, &outPointer, &outLeft)
                drain(outLeft)
            }
        }
        return (output, invalid)
    }
}
