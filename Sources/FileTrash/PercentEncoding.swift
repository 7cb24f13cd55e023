/// The escaping `.trashinfo` files and `directorysizes` use for paths: as
/// in URLs (RFC 2396), every byte but the unreserved ones and `/` as
/// `%XX` — what GLib writes (`g_uri_escape_string(path, "/", FALSE)`), so
/// that GNOME's and KDE's trash read ours.
enum PercentEncoding {
    /// `path`'s bytes, escaped.
    static func escape(_ path: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if isKept(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` escapes, or nil where a `%` is not followed by two
    /// hex digits. Bytes that are not UTF-8 come back repaired.
    static func unescape(_ text: String) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(value), let low = bytes.next().flatMap(value) else { return nil }
            out.append(high << 4 | low)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
