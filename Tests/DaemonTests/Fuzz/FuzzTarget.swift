import Foundation

/// One method a fuzzed call may reach, as introspection declares it.
struct FuzzTarget: Equatable {
    /// The interface.
    let interface: String
    /// The method.
    let member: String
    /// Its in-arguments' signature, all types together.
    let signature: String

    /// Every method in an `Introspect` document.
    static func parse(_ xml: String) -> [FuzzTarget] {
        var targets: [FuzzTarget] = []
        var interface = ""
        var method: String?
        var signature = ""
        for line in xml.split(separator: "\n") {
            if let name = Self.attribute("name", in: line), line.contains("<interface ") {
                interface = name
            } else if let name = Self.attribute("name", in: line), line.contains("<method ") {
                method = name
                signature = ""
                if line.contains("/>") {
                    targets.append(FuzzTarget(interface: interface, member: name, signature: ""))
                    method = nil
                }
            } else if line.contains("<arg "), method != nil, !line.contains("direction=\"out\""),
                      let type = Self.attribute("type", in: line) {
                signature += type
            } else if line.contains("</method>"), let name = method {
                targets.append(FuzzTarget(interface: interface, member: name, signature: signature))
                method = nil
            }
        }
        return targets
    }

    /// The value of `name="…"` in an element.
    private static func attribute(_ name: String, in line: Substring) -> String? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
