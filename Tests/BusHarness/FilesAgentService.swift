public import Foundation

/// A D-Bus services folder that activates the built undod-files as
/// `org.undod.Files1`, as the installed `org.undod.Files1.service` does:
/// for a test bus (`TestBus(services:)`) on which shells record.
public final class FilesAgentService {
    /// The folder, to give the bus.
    public let directory: URL

    /// Writes the folder and its one `.service` file.
    public init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-files-services-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let agent = DaemonProcess.buildDirectory.appendingPathComponent("undod-files").path
        try "[D-BUS Service]\nName=org.undod.Files1\nExec=\(agent) --agent\n"
            .write(to: directory.appendingPathComponent("org.undod.Files1.service"), atomically: false, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
