#!/usr/bin/python3
"""A process that is not systemd taking org.freedesktop.systemd1 and
offering a desktop's environment, as a Trust test's attacker.

Usage: fake_systemd.py BUS_ADDRESS KEY=VALUE...
Prints {"event": "ready"} once it owns the name, announces its Environment with
PropertiesChanged, and serves Get until killed.
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

MANAGER = "org.freedesktop.systemd1.Manager"


class Systemd(dbus.service.Object):
    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return dbus.Array(sys.argv[2:], signature="s")

    @dbus.service.signal("org.freedesktop.DBus.Properties", signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    fake = Systemd(bus, "/org/freedesktop/systemd1")
    name = dbus.service.BusName("org.freedesktop.systemd1", bus)
    print('{"event": "ready"}', flush=True)
    fake.PropertiesChanged(MANAGER, {"Environment": dbus.Array(sys.argv[2:], signature="s")}, [])
    GLib.timeout_add(200, lambda: fake.PropertiesChanged(
        MANAGER, {"Environment": dbus.Array(sys.argv[2:], signature="s")}, []) or True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    main()
