// swift-tools-version:6.0
// undod: system-wide undo and redo for the Linux desktop.
import PackageDescription

/// Strict settings shared by every Swift target.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "undod",
    products: [
        .executable(name: "undod", targets: ["undod"]),
        .executable(name: "undoctl", targets: ["undoctl"]),
        .executable(name: "undod-files", targets: ["undod-files"]),
        .executable(name: "undod-files-run", targets: ["undod-files-run"]),
        .executable(name: "undod-bench", targets: ["undod-bench"]),
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "UndoKit", targets: ["UndoKit"]),
    ],
    targets: [
        // C libraries from Debian.
        .systemLibrary(
            name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CXCB", path: "Sources/CXCB", pkgConfig: "xcb-res",
            providers: [.apt(["libxcb1-dev", "libxcb-res0-dev"])]),
        .systemLibrary(
            name: "CXKBCommon", path: "Sources/CXKBCommon", pkgConfig: "xkbcommon",
            providers: [.apt(["libxkbcommon-dev"])]),
        // The few C macros and signal-safe functions Swift cannot express.
        .target(name: "CShim", path: "Sources/CShim"),
        // The one libxcb global Swift cannot touch: an extension's descriptor.
        .target(name: "CXCBShim", dependencies: ["CXCB"], path: "Sources/CXCBShim"),
        // What undod-bench needs from C: children that die with it, and a guard.
        .target(name: "CBench", path: "Sources/CBench"),

        // Libraries, lowest layer first (scripts/check-layers.py holds the layers).
        // Text a caller sent, made safe to quote in an error or the log.
        .target(name: "SafeText", swiftSettings: strict),
        // A lock ThreadSanitizer can see.
        .target(name: "Locking", swiftSettings: strict),
        .target(name: "SystemCalls", dependencies: ["Locking", "CShim"], swiftSettings: strict),
        // JSON as undoctl and the bench print it.
        .target(name: "JSONText", swiftSettings: strict),
        // What tests, the bench and the fuzzer share to drive undod from outside.
        .target(name: "Rig", dependencies: ["SystemCalls"], swiftSettings: strict),
        .target(name: "FileTrash", dependencies: ["SystemCalls"], swiftSettings: strict),
        .target(name: "FileUndo", dependencies: ["FileTrash", "SystemCalls", "JSONText"], swiftSettings: strict),
        // The ground: the loop every part runs on, the time, the environment, the log.
        // What a process reads of its OS, each apart from the loop: the clock,
        // the environment, and the log it writes.
        .target(name: "SystemClock", swiftSettings: strict),
        .target(name: "ProcessEnvironment", dependencies: ["CShim"], swiftSettings: strict),
        .target(name: "Logging", dependencies: ["Locking", "SystemClock", "ProcessEnvironment"], swiftSettings: strict),
        .target(name: "Loop", dependencies: ["SystemClock", "SystemCalls", "CShim", "Locking"], swiftSettings: strict),
        // The undo model: pure, deterministic, no I/O.
        .target(name: "UndoCore", dependencies: ["SafeText"], swiftSettings: strict),
        // Side by side on the loop: the bus and the X server.
        .target(name: "DBus", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "SystemCalls", "CDBus", "CShim", "SafeText", "Locking"], swiftSettings: strict),
        .target(name: "X11", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "CXCB", "CXCBShim", "CXKBCommon", "Locking"], swiftSettings: strict),
        // sway's IPC (any compositor speaking i3's), on the same loop.
        .target(name: "SwayIPC", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "SystemCalls", "JSONText"], swiftSettings: strict),
        // The history on disk.
        .target(name: "UndoStore", dependencies: ["UndoCore", "SystemCalls", "CSQLite", "CShim", "Locking"], swiftSettings: strict),
        // The wire contract in one place: its names and types, no bus.
        .target(name: "Undo1", dependencies: ["UndoCore"], swiftSettings: strict),
        // The contract's types to and from D-Bus values and messages.
        .target(name: "Undo1Wire", dependencies: ["DBus", "Undo1", "UndoCore"], swiftSettings: strict),
        // The undo service, the caretaker of every stack: no bus, no desktop, no config file.
        .target(name: "Caretaker", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "Undo1", "UndoCore", "UndoStore", "SafeText"], swiftSettings: strict),
        // The library apps link.
        .target(name: "UndoKit", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "Undo1", "Undo1Wire", "UndoCore", "Locking"], swiftSettings: strict),
        // The daemon: the service wired to the bus, the desktop and the config.
        .target(name: "UndoDaemon", dependencies: ["Caretaker", "Loop", "Logging", "ProcessEnvironment", "SystemClock", "SystemCalls", "DBus", "Undo1", "Undo1Wire", "X11", "SwayIPC", "JSONText", "UndoCore", "UndoStore", "SafeText", "Locking"],
                swiftSettings: strict),

        // Executables.
        .executableTarget(name: "undod", dependencies: ["UndoDaemon", "Undo1", "Undo1Wire", "Loop", "Logging", "ProcessEnvironment", "SystemClock"], swiftSettings: strict),
        .executableTarget(name: "undod-files", dependencies: ["FileUndo", "FileTrash", "SystemCalls", "UndoKit", "DBus", "Loop", "ProcessEnvironment", "Locking"], swiftSettings: strict),
        // Started for every command a shell's functions run: no Foundation, no UndoKit.
        .executableTarget(name: "undod-files-run", dependencies: ["FileUndo", "FileTrash", "SystemCalls", "DBus", "Loop", "ProcessEnvironment"], swiftSettings: strict),
        .executableTarget(name: "undoctl", dependencies: ["FileUndo", "Loop", "Logging", "ProcessEnvironment", "SystemClock", "SystemCalls", "DBus", "Undo1", "Undo1Wire", "UndoCore", "JSONText"], swiftSettings: strict),
        .executableTarget(name: "line-editor", dependencies: ["UndoKit"], path: "Examples/LineEditor",
                          swiftSettings: strict),
        .executableTarget(name: "undod-bench", dependencies: ["SystemCalls", "Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "Undo1", "Undo1Wire", "UndoCore", "UndoKit", "CBench", "JSONText", "Rig", "Locking"], swiftSettings: strict),

        // Tests.
        // What the harness needs from C: a child's end, seen without Foundation.
        .target(name: "CHarness", path: "Tests/CHarness"),
        .target(name: "BusHarness", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "Undo1", "Undo1Wire", "UndoCore", "Rig", "Locking", "CHarness"], path: "Tests/BusHarness",
                swiftSettings: strict),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: strict),
        .testTarget(name: "FileTrashTests", dependencies: ["FileTrash", "SystemCalls", "BusHarness"], swiftSettings: strict),
        .testTarget(name: "FileUndoTests", dependencies: ["FileUndo", "FileTrash", "SystemCalls", "BusHarness"], swiftSettings: strict),
        .testTarget(name: "DBusTests", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "CDBus", "BusHarness", "Locking"], swiftSettings: strict),
        .testTarget(name: "UndoCoreTests", dependencies: ["UndoCore", "Rig", "SafeText"], swiftSettings: strict),
        .testTarget(name: "RigTests", dependencies: ["Rig"], swiftSettings: strict),
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText"], swiftSettings: strict),
        .testTarget(name: "UndodBenchTests", dependencies: ["undod-bench"], swiftSettings: strict),
        .testTarget(name: "LoopTests", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "Locking"], swiftSettings: strict),
        .testTarget(name: "StoreTests", dependencies: ["UndoStore", "UndoCore", "Locking", "SystemCalls"], swiftSettings: strict),
        .testTarget(name: "CaretakerTests", dependencies: ["Caretaker", "Loop", "Logging", "ProcessEnvironment", "SystemClock", "Undo1", "UndoCore", "UndoStore"],
                    swiftSettings: strict),
        .testTarget(name: "DesktopTests", dependencies: ["BusHarness", "DBus", "Loop", "Logging", "ProcessEnvironment", "SystemClock", "Rig"], swiftSettings: strict),
        .testTarget(
            name: "DaemonTests",
            dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "BusHarness", "Rig", "Undo1", "Undo1Wire", "UndoCore", "UndoStore", "Caretaker", "UndoDaemon", "X11"],
            swiftSettings: strict),
        .testTarget(name: "UndoKitTests", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "UndoKit", "DBus", "BusHarness", "Locking"], swiftSettings: strict),
        .testTarget(name: "UndoctlTests", dependencies: ["Loop", "Logging", "ProcessEnvironment", "SystemClock", "DBus", "BusHarness"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
