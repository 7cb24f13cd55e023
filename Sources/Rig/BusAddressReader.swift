/// Reads the address a starting `dbus-daemon --print-address` writes: the
/// first line on its stdout, waited for with a deadline that fires even
/// when the bus prints nothing at all.
public enum BusAddressReader {
    /// The first line read from `descriptor` within `milliseconds`; throws
    /// when the line does not come in time, or is not a `unix:` address.
    public static func read(from descriptor: Int32, within milliseconds: Int) throws(RigError) -> String {
        let (first, seen) = LineReader.firstLine(from: descriptor, within: milliseconds)
        let line = first ?? ""
        guard line.hasPrefix("unix:") else {
            let said = seen.isEmpty ? "nothing" : "“\(seen.prefix(200))”"
            throw RigError("dbus-daemon did not print a bus address within \(milliseconds) ms (it printed \(said)).")
        }
        return line
    }
}
