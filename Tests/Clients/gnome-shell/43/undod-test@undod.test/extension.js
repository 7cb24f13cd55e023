// For undod's tests only (GNOME Shell 43 and 44): the user's hand on a
// headless GNOME Shell, which has no command to activate a window. Exports
// org.undod.Test.Shell at /org/undod/Test/Shell on the Shell's own
// connection (call it at org.gnome.Shell):
//
//   Focus(u pid) -> b found   activates the window of process pid
//   Windows() -> au pids      the processes of the windows the Shell has
//   Started()                 answers once the Shell has finished starting:
//                             until then it drops every key binding

'use strict';

const { Gio } = imports.gi;
const Main = imports.ui.main;

const INTERFACE = `<node>
  <interface name="org.undod.Test.Shell">
    <method name="Focus"><arg type="u" direction="in" name="pid"/><arg type="b" direction="out" name="found"/></method>
    <method name="Windows"><arg type="au" direction="out" name="pids"/></method>
    <method name="Started"/>
  </interface>
</node>`;

class TestHand {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._object.export(Gio.DBus.session, '/org/undod/Test/Shell');
    }

    disable() {
        this._object.unexport();
        this._object = null;
    }

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

function init() {
    return new TestHand();
}
