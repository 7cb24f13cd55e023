import DBus
import SafeText

/// undod's GNOME Shell extension as GNOME Shell reports it
/// (`org.gnome.Shell.Extensions.GetExtensionInfo`), where it is not active.
enum GnomeExtensionState: Equatable {
    /// The Shell knows no such extension.
    case notInstalled
    /// Installed, and not enabled (INACTIVE, or INITIALIZED).
    case disabled
    /// The Shell's version is missing from the extension's `shell-version`
    /// (OUT_OF_DATE): the Shell never loads it.
    case outOfDate
    /// The Shell tried to load it and failed, saying `error`.
    case failed(error: String)

    /// Reads the Shell's answer: nil while the extension is active, or
    /// still loading (GNOME Shell 45 and later say ERROR with no error
    /// until an asynchronous load ends, then INACTIVE while enabled; before
    /// its load even starts, the Shell knows the extension's metadata and
    /// has no state to give), or in a state of no concern. An empty answer:
    /// the Shell knows no such extension.
    init?(info: [String: DBusValue]) {
        guard let state = info["state"].flatMap(Self.number) else {
            guard info.isEmpty else { return nil }
            self = .notInstalled
            return
        }
        switch state {
        case 2, 6:
            // GNOME Shell 46 and later say whether the user enabled it: one
            // enabled and INACTIVE is on its way to ACTIVE (50 passes
            // through it at every start).
            guard info["enabled"]?.bool != true else { return nil }
            self = .disabled
        case 3:
            let error = info["error"]?.string ?? ""
            guard !error.isEmpty else { return nil }
            self = .failed(error: error)
        case 4: self = .outOfDate
        case 99: self = .notInstalled
        default: return nil   // 1 active; 5, 7, 8 on the way somewhere
        }
    }

    /// The rest of `KeyProblem.sentence`: what the Shell says, and the fix.
    var clause: String {
        let uuid = KeyProblem.extensionUUID
        return switch self {
        case .notInstalled:
            "undod's GNOME Shell extension is not installed; install undod (its package, or `make install`), "
                + "log out and in, and run `gnome-extensions enable \(uuid)`."
        case .disabled:
            "undod's GNOME Shell extension is not enabled; run `gnome-extensions enable \(uuid)`."
        case .outOfDate:
            "GNOME Shell marks undod's extension OUT OF DATE (its version is not among those the extension "
                + "declares) and does not load it; install an undod that supports this GNOME, or run `gsettings set "
                + "org.gnome.shell disable-extension-version-validation true` and log out and in."
        case .failed(let error):
            "GNOME Shell could not load undod's extension (\(CallerText.quoted(error))); "
                + "reinstall undod (its package, or `make install`) and log out and in."
        }
    }

    private static func number(_ value: DBusValue) -> Int? {
        switch value {
        case .double(let number): Int(exactly: number)
        case .int32(let number): Int(number)
        case .uint32(let number): Int(number)
        default: nil
        }
    }
}
