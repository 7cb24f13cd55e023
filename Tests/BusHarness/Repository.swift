public import Foundation

/// The repository these tests were built from: where the shipped files
/// (README, config, interface XML, example apps, test clients) are read.
public enum Repository {
    /// The repository's root directory, from this file's place in it.
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The path of the test client script `name` (`Tests/Clients/`).
    public static func client(_ name: String) -> String {
        file("Tests/Clients/\(name)").path
    }

    /// The file at `path` relative to the root.
    public static func file(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
