#!/usr/bin/python3
"""libundod from Python through its typelib: register, push, undo focused,
the apply handler's payloads. Runs undod ($UNDOD) on a private bus."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import gi
gi.require_version("Undod", "1.0")
from gi.repository import GLib, Gio, Undod  # noqa: E402

WAIT_MS = 20000


def wait_for(condition, what):
    timed_out = []
    timer = GLib.timeout_add(WAIT_MS, lambda: timed_out.append(True) and False)
    context = GLib.MainContext.default()
    while not condition() and not timed_out:
        context.iteration(True)
    if not timed_out:
        GLib.source_remove(timer)
    if not condition():
        sys.exit(f"Gave up after {WAIT_MS} ms waiting for {what}")


def main():
    bus = Gio.TestDBus.new(Gio.TestDBusFlags.NONE)
    bus.up()
    directory = tempfile.mkdtemp(prefix="libundod-py-")
    config = os.path.join(directory, "undod.conf")
    with open(config, "w") as f:
        f.write("")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK")}
    undod = subprocess.Popen([os.environ["UNDOD"], "--address", bus.get_bus_address(), "--config", config,
                              "--state-dir", os.path.join(directory, "state")], env=env)
    try:
        client = Undod.Client.new_sync(bus.get_bus_address(), None)
        wait_for(client.get_daemon_running, "undod")

        results = []
        client.register("org.undod.test.Python", Undod.Options(document="notes.txt"), None,
                        lambda c, r: results.append(c.register_finish(r)))
        wait_for(lambda: results, "Register")
        stack = results.pop()

        applied = []

        def on_apply(stack, apply):
            applied.extend((apply.props.direction, bytes(p.get_data())) for p in apply.get_payloads())
            apply.return_success()
            return True

        stack.connect("apply", on_apply)
        hints = Undod.Hints.new()
        hints.set_merge_key("typing")
        hints.set_state_tag("hi")
        stack.push_full("Typing", GLib.Bytes.new(b"delete 'hi'"), GLib.Bytes.new(b"insert 'hi'"), hints)
        assert stack.props.can_undo and stack.props.undo_name == "Typing", (stack.props.can_undo, stack.props.undo_name)
        client.undo_focused(None, lambda c, r: results.append(c.undo_focused_finish(r)))
        wait_for(lambda: results, "UndoFocused")
        group, path, name = results.pop()
        assert name == "Typing", name
        assert path == stack.get_path(), (path, stack.get_path())
        assert group > 0
        assert applied == [(Undod.Direction.UNDO, b"delete 'hi'")], applied
        assert stack.props.can_redo and stack.props.redo_name == "Typing"  # at once, for a key pressed next
        wait_for(lambda: not stack.props.can_undo, "can-undo read from undod after the undo")

        stack.undo(None, lambda s, r: results.append(r))
        wait_for(lambda: results, "Undo")
        try:
            stack.undo_finish(results.pop())
            sys.exit("an undo of an empty stack succeeded")
        except GLib.Error as error:
            assert error.matches(Undod.error_quark(), Undod.Error.NOTHING_TO_UNDO), error
        # The undo manager takes Python functions: undod's undo runs them.
        client.register("org.undod.test.PythonManager", Undod.Options(persist=False), None,
                        lambda c, r: results.append(c.register_finish(r)))
        wait_for(lambda: results, "Register of the manager's stack")
        managed = results.pop()
        manager = Undod.Manager.new(managed)
        model = {"value": 0}

        def set_value(value):
            previous = model["value"]
            manager.register_undo(lambda: set_value(previous))
            manager.set_action_name("Set")
            model["value"] = value

        set_value(5)
        GLib.MainContext.default().iteration(False)  # the turn ends: the group goes to undod
        client.undo_focused(None, lambda c, r: results.append(c.undo_focused_finish(r)))
        wait_for(lambda: results, "UndoFocused on the manager's stack")
        assert results.pop()[2] == "Set"
        assert model["value"] == 0, model
        print("ok: libundod works from Python through its typelib")
    finally:
        undod.send_signal(signal.SIGTERM)
        undod.wait(timeout=30)
        bus.down()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
