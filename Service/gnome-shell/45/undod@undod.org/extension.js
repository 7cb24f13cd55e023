// undod's GNOME Shell extension, for GNOME Shell 45 and later (ES modules;
// 43/ holds the same for GNOME Shell 43 and 44).
//
// It does two things, both by calling undod on the session bus from the
// Shell's own connection (the one that owns org.gnome.Shell, which is why
// undod believes it):
//
// - whenever the focus window changes, when undod appears on the bus, and
//   when enabled, it reports the window in front with
//   ReportFocus(pid, app id, sandbox app id);
// - it binds the keys of its settings (org.gnome.shell.extensions.undod:
//   undo, redo) to UndoFocused and RedoFocused.
//
// Focus reports never start undod (NO_AUTO_START); a key does, as any
// D-Bus call would.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

const UNDOD = 'org.undod.Undo1';
const MANAGER_PATH = '/org/undod/Undo1';
const MANAGER = 'org.undod.Undo1.Manager';

export default class UndodExtension extends Extension {
    enable() {
        this._settings = this.getSettings();
        this._focusHandler = global.display.connect('notify::focus-window', () => this._report());
        this._watch = Gio.bus_watch_name(Gio.BusType.SESSION, UNDOD, Gio.BusNameWatcherFlags.NONE,
            () => this._report(), null);
        const modes = Shell.ActionMode.NORMAL | Shell.ActionMode.OVERVIEW;
        Main.wm.addKeybinding('undo', this._settings, Meta.KeyBindingFlags.NONE, modes,
            () => this._call('UndoFocused', null, Gio.DBusCallFlags.NONE));
        Main.wm.addKeybinding('redo', this._settings, Meta.KeyBindingFlags.NONE, modes,
            () => this._call('RedoFocused', null, Gio.DBusCallFlags.NONE));
        this._report();
    }

    disable() {
        Main.wm.removeKeybinding('undo');
        Main.wm.removeKeybinding('redo');
        Gio.bus_unwatch_name(this._watch);
        global.display.disconnect(this._focusHandler);
        this._settings = null;
        // No word from the Shell any more: undod focuses nothing by it.
        this._call('ReportFocus', new GLib.Variant('(uss)', [0, '', '']), Gio.DBusCallFlags.NO_AUTO_START);
    }

    // The window in front: its process as the Shell knows it (0: none), the
    // app id it gave itself (undod never picks a stack by it) and its
    // sandbox's app id (Flatpak), where the Shell knows one.
    _report() {
        const window = global.display.focus_window;
        const pid = window ? window.get_pid() : 0;
        const appId = window ? (window.get_gtk_application_id() || window.get_wm_class() || '') : '';
        const sandbox = window ? (window.get_sandboxed_app_id() || '') : '';
        this._call('ReportFocus', new GLib.Variant('(uss)', [pid > 0 ? pid : 0, appId, sandbox]),
            Gio.DBusCallFlags.NO_AUTO_START);
    }

    _call(method, parameters, flags) {
        Gio.DBus.session.call(UNDOD, MANAGER_PATH, MANAGER, method, parameters, null, flags, -1, null,
            (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (error) {
                    // undod absent, or nothing to undo in front: undod says
                    // so itself (log, notification); the Shell stays quiet.
                }
            });
    }
}
