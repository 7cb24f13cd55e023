/// A Wayland compositor that tells undod which window is in front through
/// `ReportFocus`: KWin through the script undod loads into it, GNOME Shell
/// through the project's extension.
enum Compositor: String, CaseIterable, Sendable {
    /// KDE Plasma's KWin: the `kwin` strategy.
    case kwin
    /// GNOME Shell: the `gnome` strategy.
    case gnome

    /// The well-known name the compositor owns on the session bus: only its
    /// owner may report.
    var busName: String {
        switch self {
        case .kwin: "org.kde.KWin"
        case .gnome: "org.gnome.Shell"
        }
    }

    /// The word `XDG_CURRENT_DESKTOP` uses for the desktop it belongs to.
    var desktopName: String {
        switch self {
        case .kwin: "KDE"
        case .gnome: "GNOME"
        }
    }

    /// Whether `XDG_CURRENT_DESKTOP` (a colon-separated list) names this
    /// compositor's desktop: only then may `auto` trust its reports.
    func isNamed(in currentDesktop: String?) -> Bool {
        (currentDesktop ?? "").split(separator: ":").contains { $0.uppercased() == desktopName }
    }
}
