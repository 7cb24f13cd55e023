// For undod's tests only (GNOME Shell 45 and later; 43/ holds the same for
// GNOME Shell 43 and 44): the user's hand on a headless GNOME Shell, which
// has no command to activate a window. Exports org.undod.Test.Shell at
// /org/undod/Test/Shell on the Shell's own connection (call it at
// org.gnome.Shell):
//
//   Focus(u pid) -> b found   activates the window of process pid
//   Windows() -> au pids      the processes of the windows the Shell has
//   Started()                 answers once the Shell has finished starting:
//                             until then it drops every key binding

import Gio from 'gi://Gio';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

const INTERFACE = `<node>
  <interface name="org.undod.Test.Shell">
    <method name="Focus"><arg type="u" direction="in" name="pid"/><arg type="b" direction="out" name="found"/></method>
    <method name="Windows"><arg type="au" direction="out" name="pids"/></method>
    <method name="Started"/>
  </interface>
</node>`;

export default class TestHandExtension extends Extension {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, new TestHand());
        this._object.export(Gio.DBus.session, '/org/undod/Test/Shell');
    }

    disable() {
        this._object.unexport();
        this._object = null;
    }
}

// The exported object's methods (the 43 format's, unchanged).
class TestHand {
    Focus(pid) {
        const window = global.display.list_all_windows().find(candidate => candidate.get_pid() === pid);
        if (!window)
            return false;
        window.activate(global.get_current_time());
        return true;
    }

    Windows() {
        return global.display.list_all_windows().map(window => window.get_pid());
    }

    // Extensions are enabled before the Shell's start-up ends, and until it
    // ends (Main.actionMode NONE) the Shell drops every key binding.
    StartedAsync(params, invocation) {
        if (!Main.layoutManager._startingUp)
            return invocation.return_value(null);
        const id = Main.layoutManager.connect('startup-complete', () => {
            Main.layoutManager.disconnect(id);
            invocation.return_value(null);
        });
    }
}
