#!/usr/bin/python3
"""A python3-dbus app for the Trust tests: registers a stack, may push a
group and undo it, prints one JSON object and exits (its stack detaches).

Usage: origin_client.py BUS_ADDRESS APP_ID [--document D] [--state-tag T]
       [--push PAYLOAD] [--undo] [--memory-only]
       origin_client.py BUS_ADDRESS --look STACK_PATH
Prints {"path": …} or {"error": NAME, "message": TEXT}, with "pushed" and
"applied" (the payloads Apply received, as text) where asked. --look
registers nothing: it prints what this process may read of a stack
("properties" from GetManagedObjects, and "history", "undo_name" or the
error names "history_error", "undo_name_error").
"""
import argparse
import json

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.undod.Undo1"
applied = []


class Client(dbus.service.Object):
    @dbus.service.method("org.undod.Undo1.Client", in_signature="otsaay", out_signature="")
    def Apply(self, stack, group, direction, payloads):
        applied.extend(bytes(p).decode() for p in payloads)


def look(bus, path):
    """What this process may read of the stack at `path`."""
    seen = {}
    objects = bus.get_object(NAME, "/org/undod/Undo1").GetManagedObjects(
        dbus_interface="org.freedesktop.DBus.ObjectManager")
    stack_properties = objects.get(dbus.ObjectPath(path), {}).get("org.undod.Undo1.Stack", {})
    seen["properties"] = sorted(str(key) for key in stack_properties)
    stack = bus.get_object(NAME, path, introspect=False)
    try:
        undo, redo = stack.History(dbus_interface="org.undod.Undo1.Stack")
        seen["history"] = [str(entry[1]) for entry in undo]
    except dbus.exceptions.DBusException as error:
        seen["history_error"] = error.get_dbus_name()
    try:
        seen["undo_name"] = str(stack.Get("org.undod.Undo1.Stack", "UndoName",
                                          dbus_interface="org.freedesktop.DBus.Properties"))
    except dbus.exceptions.DBusException as error:
        seen["undo_name_error"] = error.get_dbus_name()
    return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("app_id", nargs="?")
    parser.add_argument("--look", default=None)
    parser.add_argument("--document", default="")
    parser.add_argument("--state-tag", default=None)
    parser.add_argument("--push", default=None)
    parser.add_argument("--undo", action="store_true")
    parser.add_argument("--memory-only", action="store_true")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.address)
    Client(bus, "/org/undod/Undo1/Client")
    manager = dbus.Interface(bus.get_object(NAME, "/org/undod/Undo1"), "org.undod.Undo1.Manager")
    if args.look is not None:
        print(json.dumps(look(bus, args.look)))
        return
    options = {"document": args.document}
    if args.state_tag is not None:
        options["state_tag"] = args.state_tag
    if args.memory_only:
        options["persist"] = dbus.Boolean(False)
        options["global_trigger"] = dbus.Boolean(False)
    result = {}
    try:
        path = manager.Register(args.app_id, dbus.Dictionary(options, signature="sv"))
    except dbus.exceptions.DBusException as error:
        print(json.dumps({"error": error.get_dbus_name(), "message": error.get_dbus_message()}))
        return
    result["path"] = str(path)
    stack = dbus.Interface(bus.get_object(NAME, path), "org.undod.Undo1.Stack")
    if args.push is not None:
        empty = dbus.Dictionary({}, signature="sv")
        stack.Push("Change", dbus.ByteArray(args.push.encode()), dbus.ByteArray(b"redo"), empty)
        result["pushed"] = args.push
    if args.undo:
        loop = GLib.MainLoop()

        def done(*answer):
            loop.quit()

        def failed(error):
            result["undo_error"] = error.get_dbus_name()
            loop.quit()

        # Asynchronous, so this process can serve Apply while it waits.
        stack.Undo(reply_handler=done, error_handler=failed)
        GLib.timeout_add_seconds(20, loop.quit)
        loop.run()
        result["applied"] = applied
    print(json.dumps(result))


if __name__ == "__main__":
    main()
