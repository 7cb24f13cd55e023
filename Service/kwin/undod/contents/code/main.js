// undod's KWin script (KWin 5.27 and 6).
//
// undod loads this script into KWin through org.kde.kwin.Scripting when it
// starts under KDE, and unloads it when it stops. The script does two
// things, both by calling undod on the session bus from KWin's own
// connection (the one that owns org.kde.KWin, which is why undod believes
// it):
//
// - on every change of the active window, and once at start, it reports
//   the window in front with ReportFocus(pid, app id, sandbox app id);
// - it registers the global undo and redo keys as KWin shortcuts (System
//   Settings > Shortcuts > KWin: "undod: Undo in the window in front")
//   that call UndoFocused and RedoFocused.
//
// KWin's engine sends every whole number as a D-Bus int32; undod accepts
// ReportFocus's pid as one for that reason.

var undod = {
    name: "org.undod.Undo1",
    path: "/org/undod/Undo1",
    manager: "org.undod.Undo1.Manager"
};

// The window in front as KWin knows it: its process, the app id it gave
// itself (which undod never uses to pick a stack) and no sandbox app id
// (KWin's scripts do not see one).
function report(window) {
    if (window && window.pid > 0) {
        callDBus(undod.name, undod.path, undod.manager, "ReportFocus",
                 window.pid, String(window.desktopFileName || window.resourceClass || ""), "");
    } else {
        callDBus(undod.name, undod.path, undod.manager, "ReportFocus", 0, "", "");
    }
}

// KWin 6 calls windows "windows"; KWin 5 called them "clients".
var activated = workspace.windowActivated || workspace.clientActivated;
activated.connect(report);
report(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);

registerShortcut("undod-undo", "undod: Undo in the window in front", "Ctrl+Alt+Z", function () {
    callDBus(undod.name, undod.path, undod.manager, "UndoFocused");
});
registerShortcut("undod-redo", "undod: Redo in the window in front", "Ctrl+Alt+Shift+Z", function () {
    callDBus(undod.name, undod.path, undod.manager, "RedoFocused");
});
