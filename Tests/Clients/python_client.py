#!/usr/bin/python3
"""A foreign undod client that knows only the wire contract (SPEC.md).

It registers a stack, exports org.undod.Undo1.Client, pushes a group of
three actions, asks undod to undo and then redo it, and prints one JSON
object: the payloads it was asked to apply, in order, and the answers.
Usage: python_client.py BUS_ADDRESS
"""
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.undod.Undo1"
result = {"applied": [], "errors": []}


class Client(dbus.service.Object):
    @dbus.service.method("org.undod.Undo1.Client", in_signature="otsaay", out_signature="")
    def Apply(self, stack, group, direction, payloads):
        result["applied"].append({
            "stack": str(stack), "group": int(group), "direction": str(direction),
            "payloads": [list(bytes(p)) for p in payloads],
        })


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    Client(bus, "/org/undod/Undo1/Client")
    manager = dbus.Interface(bus.get_object(NAME, "/org/undod/Undo1"), "org.undod.Undo1.Manager")
    path = manager.Register("org.example.Python", {"title": "Python Editor"})
    stack = dbus.Interface(bus.get_object(NAME, path), "org.undod.Undo1.Stack")
    props = dbus.Interface(bus.get_object(NAME, path), "org.freedesktop.DBus.Properties")
    actions = dbus.Array([(dbus.ByteArray(b"u1"), dbus.ByteArray(b"r1")),
                          (dbus.ByteArray(b"u2"), dbus.ByteArray(b"r2")),
                          (dbus.ByteArray(b"u3"), dbus.ByteArray(b"r3"))], signature="(ayay)")
    result["group"] = int(stack.PushGroup("Paste", actions, dbus.Dictionary({}, signature="sv")))
    result["undo_name"] = str(props.Get("org.undod.Undo1.Stack", "UndoName"))
    loop = GLib.MainLoop()

    def fail(error):
        result["errors"].append(error.get_dbus_name())
        loop.quit()

    def redone(group, name):
        result["redo"] = [int(group), str(name)]
        loop.quit()

    def undone(group, name):
        result["undo"] = [int(group), str(name)]
        result["can_redo"] = bool(props.Get("org.undod.Undo1.Stack", "CanRedo"))
        stack.Redo(reply_handler=redone, error_handler=fail)

    # Asynchronous, so this process can serve Apply while it waits.
    stack.Undo(reply_handler=undone, error_handler=fail)
    GLib.timeout_add_seconds(20, loop.quit)
    loop.run()
    try:
        stack.Push("", dbus.ByteArray(b""), dbus.ByteArray(b""), dbus.Dictionary({}, signature="sv"))
    except dbus.exceptions.DBusException as error:
        result["empty_name_error"] = error.get_dbus_name()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
