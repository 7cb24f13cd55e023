import BusHarness
import DBus
import Foundation
import Testing

/// The built `undoctl`, run against the fixture's bus like a user would.
extension DaemonFixture {
    /// The built undoctl.
    static var undoctlBinary: String { DaemonProcess.undoctl.path }

    /// Runs `undoctl --address BUS arguments…` while the loop serves the apps.
    /// `COLUMNS` is emptied unless `environment` sets it, so that text is
    /// never cut to the width of the terminal the tests run in.
    func undoctl(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        try undoctlBare(["--address", bus.address] + arguments, environment: environment)
    }

    /// Runs undoctl with exactly `arguments` (no `--address` added).
    func undoctlBare(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        try runTool([Self.undoctlBinary] + arguments, loop: loop,
                    environment: ["COLUMNS": ""].merging(environment) { $1 })
    }

    /// Runs `undoctl --address BUS --json arguments…`, expects exit 0 and one
    /// JSON object on one line, and returns it.
    func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try undoctl(["--json"] + arguments)
        #expect(result.status == 0, "undoctl --json \(arguments) failed: \(result.errors)")
        return try Self.object(result.output)
    }

    /// The one JSON object of `text`, which must be one line.
    static func object(_ text: String) throws -> [String: Any] {
        #expect(text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1,
                "JSON output is one line: \(text)")
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let object = value as? [String: Any] else { throw HarnessError("not a JSON object: \(text)") }
        return object
    }
}

/// The number at the end of a stack path.
func number(of path: String) -> String {
    String(path.split(separator: "/").last ?? "")
}
