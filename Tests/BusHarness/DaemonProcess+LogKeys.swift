/// undod's log read by its keys (`LogLine`).
extension DaemonProcess {
    /// The sentence of each line of undod's log that carries `key`, in order.
    public func logLines(withKey key: String) -> [String] {
        LogLine.lines(of: log).filter { $0.key == key }.map(\.text)
    }

    /// How many lines of undod's log carry `key` and, when given, hold `value`.
    public func logKeyCount(_ key: String, holding value: String? = nil) -> Int {
        logLines(withKey: key).filter { value.map($0.contains) ?? true }.count
    }
}
