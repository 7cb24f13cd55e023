#!/usr/bin/python3
"""Takes a compositor's bus name (replacing its owner where it allows) and
reports a window in front with ReportFocus, as a Trust test's attacker.

Usage: name_thief.py BUS_ADDRESS NAME PID APP_ID
Prints {"request": RequestName's answer, "error": NAME?, "message": TEXT?}.
"""
import json
import sys

import dbus

REPLACE_EXISTING, DO_NOT_QUEUE = 2, 4


def main():
    bus = dbus.bus.BusConnection(sys.argv[1])
    result = {"request": int(bus.request_name(sys.argv[2], REPLACE_EXISTING | DO_NOT_QUEUE))}
    manager = dbus.Interface(bus.get_object("org.undod.Undo1", "/org/undod/Undo1"), "org.undod.Undo1.Manager")
    try:
        manager.ReportFocus(dbus.UInt32(int(sys.argv[3])), sys.argv[4], "")
    except dbus.exceptions.DBusException as error:
        result["error"] = error.get_dbus_name()
        result["message"] = error.get_dbus_message()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
