public import DBus
import Foundation
public import Loop

/// What a foreign tool (busctl, gdbus, python3) printed and how it exited.
public struct ToolResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var output: String
    /// Standard error.
    public var errors: String
}

/// Runs a command to completion while `loop` keeps serving our own
/// connections (the tool usually talks to them), bounded by `timeout` seconds.
public func runTool(_ arguments: [String], loop: EventLoop? = nil, environment: [String: String] = [:],
                    timeout: Double = 30) throws -> ToolResult {
    let directory = FileManager.default.temporaryDirectory
    let out = directory.appendingPathComponent("tool-out-\(UUID().uuidString)")
    let err = directory.appendingPathComponent("tool-err-\(UUID().uuidString)")
    // Written in place: FileManager.createFile writes atomically, through a
    // temporary folder it leaves behind in /tmp on Linux.
    try Data().write(to: out)
    try Data().write(to: err)
    defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    // Closed here, not when Foundation lets go of the Process (which can be
    // late: see ExitWatch), so that descriptors do not pile up (see
    // `closeHarnessDescriptors`).
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    defer { closeHarnessDescriptors([outHandle, errHandle]) }
    process.standardOutput = outHandle
    process.standardError = errHandle
    process.standardInput = FileHandle.nullDevice
    let loop = loop ?? EventLoop()
    let exitWatch = try ExitWatch(running: process, waking: loop)
    loop.run(until: { exitWatch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(Int(timeout * 1_000)))
    guard let termination = exitWatch.termination else {
        exitWatch.kill()
        throw HarnessError("\(arguments.joined(separator: " ")) did not finish within \(timeout) s.")
    }
    return ToolResult(
        status: termination.status,
        output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
        errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}
