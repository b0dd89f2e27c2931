import CVignetteCodecs
import Foundation

extension ImageMetadata {
    /// Names of the DICOM transfer syntaxes, by UID.
    static let dicomSyntaxes: [String: String] = [
        "1.2.840.10008.1.2": "uncompressed (implicit VR)", "1.2.840.10008.1.2.1": "uncompressed",
        "1.2.840.10008.1.2.2": "uncompressed, big-endian", "1.2.840.113619.5.2": "uncompressed (GE private)",
        "1.2.840.10008.1.2.1.99": "deflated", "1.2.840.10008.1.2.5": "RLE", "1.2.840.10008.1.2.4.50": "JPEG baseline",
        "1.2.840.10008.1.2.4.51": "JPEG extended", "1.2.840.10008.1.2.4.57": "JPEG lossless",
        "1.2.840.10008.1.2.4.70": "JPEG lossless", "1.2.840.10008.1.2.4.80": "JPEG-LS lossless",
        "1.2.840.10008.1.2.4.81": "JPEG-LS near-lossless", "1.2.840.10008.1.2.4.90": "JPEG 2000 lossless",
        "1.2.840.10008.1.2.4.91": "JPEG 2000", "1.2.840.10008.1.2.4.100": "MPEG-2", "1.2.840.10008.1.2.4.101": "MPEG-2",
        "1.2.840.10008.1.2.4.102": "MPEG-4", "1.2.840.10008.1.2.4.103": "MPEG-4", "1.2.840.10008.1.2.4.104": "MPEG-4",
        "1.2.840.10008.1.2.4.105": "MPEG-4", "1.2.840.10008.1.2.4.106": "MPEG-4", "1.2.840.10008.1.2.4.107": "HEVC",
        "1.2.840.10008.1.2.4.108": "HEVC",
    ]

    /// The commonest modalities in words (PS3.3 C.7.3.1.1.1).
    static let dicomModalities: [String: String] = [
        "CT": "computed tomography", "MR": "magnetic resonance", "CR": "computed radiography", "DX": "digital radiography",
        "US": "ultrasound", "XA": "X-ray angiography", "RF": "radiofluoroscopy", "MG": "mammography", "NM": "nuclear medicine",
        "PT": "positron emission tomography", "OT": "other", "SC": "secondary capture", "SEG": "segmentation",
        "RTDOSE": "radiotherapy dose", "RTIMAGE": "radiotherapy image", "OP": "ophthalmic photography",
        "OPT": "ophthalmic tomography", "IO": "intra-oral radiography", "PX": "panoramic X-ray", "ES": "endoscopy",
        "XC": "external-camera photography", "SM": "slide microscopy", "IVUS": "intravascular ultrasound",
    ]

    /// A DICOM file's facts from its header (the shim's reader): bits, colour and coding as the
    /// format's details; modality, body part, study, series, study date and equipment. The
    /// patient's name, identifiers and dates of birth are never read into them.
    mutating func dicom(_ bytes: [UInt8]) {
        var f = vgn_dicom_facts()
        guard bytes.withUnsafeBufferPointer({ vgn_dicom_read_facts($0.baseAddress, $0.count, &f) }) == 0 else { return }
        let charset = Self.text(&f.charset, charset: "")
        func text<T>(_ field: inout T) -> String { Self.text(&field, charset: charset) }
        let photometric = text(&f.photometric)
        let colour: String? =
            switch photometric {
            case "MONOCHROME1": "grey, inverted (MONOCHROME1)"
            case "MONOCHROME2": "grey"
            case "RGB": "RGB"
            case "PALETTE COLOR": "palette colour"
            case "": nil
            default: photometric.hasPrefix("YBR") ? "YCbCr" : photometric
            }
        let syntax = text(&f.syntax)
        let coding = syntax.isEmpty ? "uncompressed (implicit VR)" : Self.dicomSyntaxes[syntax] ?? "transfer syntax \(syntax)"
        let depth = f.bits_stored > 0 ? "\(f.bits_stored)-bit" : nil
        details =
            [[depth, colour].compactMap { $0 }.joined(separator: " "), coding, f.frames > 1 ? "\(f.frames) frames" : ""]
            .filter { !$0.isEmpty }.joined(separator: ", ")
        let modality = text(&f.modality)
        if !modality.isEmpty {
            facts.append(Fact(label: "Modality", value: Self.dicomModalities[modality].map { "\(modality) (\($0))" } ?? modality))
        }
        for (label, value) in [("Body part", text(&f.body_part)), ("Study", text(&f.study)), ("Series", text(&f.series))]
        where !value.isEmpty {
            facts.append(Fact(label: label, value: value))
        }
        let date = text(&f.study_date)
        if date.count == 8, date.allSatisfy(\.isASCII), date.allSatisfy(\.isNumber) {
            facts.append(Fact(label: "Study date", value: "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))"))
        }
        let equipment = [text(&f.manufacturer), text(&f.model)].filter { !$0.isEmpty }.joined(separator: " ")
        if !equipment.isEmpty { facts.append(Fact(label: "Equipment", value: equipment)) }
        if f.has_pixels == 0 { facts.append(Fact(label: "Contents", value: "no picture (a report, plan or waveform object)")) }
    }

    /// A fixed-size C string field as text: UTF-8 under ISO_IR 192, Latin-1 under ISO_IR 100,
    /// else as UTF-8 with what is not replaced.
    static func text<T>(_ field: inout T, charset: String) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = Array(raw.prefix { $0 != 0 })
            if charset.contains("ISO_IR 100"), let latin = String(bytes: bytes, encoding: .isoLatin1) { return latin }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
