#!/usr/bin/python3
"""A scriptable desktop application for undod's tests.

One process that may own X11 top-level windows (python-xlib) and/or a D-Bus
connection to undod (python3-dbus on the GLib main loop). The test drives it
with JSON lines on stdin and reads JSON lines from stdout (each flushed).

Usage: /usr/bin/python3 x11_app.py [--bus ADDRESS] [--display DISPLAY]

Without --bus there is no D-Bus connection; without --display $DISPLAY is
used (and if that is unset or cannot be opened, the process runs without X;
an explicit --display that cannot be opened exits 1).

First line: {"event":"ready","pid":PID,"bus_name":":1.7"|null,"display":":99"|null}

Commands are handled one at a time, in order: each gets exactly one reply
line (its event, or {"event":"error","cmd":CMD,"name":NAME,"message":TEXT}
where NAME is the D-Bus error name, "x11" for X trouble, or "usage" for a
malformed command or one that needs a bus/display the process lacks).
Asynchronous "apply" events may appear between any two lines, because the
process always serves Client.Apply, even while a command waits.

  {"cmd":"window","name":"w1","title":"Notes","transient_for":XID|"w0",
   "set_pid":true,"pid":N,"machine":"host"}  -> {"event":"window","name":"w1","xid":N}
     ("pid" writes that _NET_WM_PID instead of this process's own)
  {"cmd":"destroy","name":"w1"}              -> {"event":"destroyed","name":"w1"}
  {"cmd":"wl_window","title":"Notes","app_id":"org.example.A"?}
                                             -> {"event":"wl_window"}
     (a GTK 3 window on the Wayland display $WAYLAND_DISPLAY, for sway's
      tests; "app_id" is the app id the window gives itself, by default
      the program's name — a test sets it to another app's to try a spoof)
  {"cmd":"grab_key","key":"z","modifiers":["control","mod1"]}
                                             -> {"event":"grabbed","keycode":N}
     (a passive grab on the root window, exactly those modifiers: the key is
      then taken, as another hotkey daemon would take it)
  {"cmd":"register","app_id":"org.example.A","options":{...}}
                                             -> {"event":"registered","path":P}
  {"cmd":"push","name":"Typing","undo":"u","redo":"r","hints":{...},"stack":P?}
                                             -> {"event":"pushed","group":N}
  {"cmd":"push_group","name":"Paste","actions":[["u1","r1"],...],"hints":{},"stack":P?}
                                             -> {"event":"pushed","group":N}
  {"cmd":"activate","stack":P?}              -> {"event":"activated"}
  {"cmd":"deactivate","stack":P?}            -> {"event":"deactivated"}
  {"cmd":"close","discard":false,"stack":P?} -> {"event":"closed"}
  {"cmd":"behaviour","apply":"ok"|"fail"|"hang"|"obsolete","error":NAME?}
                                             -> {"event":"behaviour"}
  {"cmd":"spawn"}                            -> {"event":"spawned","pid":N}
     (a child process that waits, as a terminal's shell does, until this
      process exits)
  {"cmd":"quit"}                             -> {"event":"bye"}, exit 0

"stack" defaults to the path of the last successful register. EOF on stdin:
the commands already read are finished, then the process exits 0 silently.

Register options: strings -> s, booleans -> b, "limit" and "process" -> u, "max_bytes" -> t,
"windows" -> at (items are xids or names of this process's windows), other
integers -> i, floats -> d. Push hints: strings -> s, "merge_window_ms" -> u,
booleans -> b, other integers -> i. In both, a value {"sig":"X","value":V}
is sent as a variant of D-Bus signature X (to test type checking).

Each Apply prints
  {"event":"apply","stack":P,"group":N,"direction":"undo","payloads":["text",...],"t":MONOTONIC}
(payloads decoded as UTF-8 with errors="replace"; t is time.monotonic(),
CLOCK_MONOTONIC seconds) and is then answered per the behaviour: ok (the
default) = success, fail = org.example.Error.Failed (or the "error" given), hang = never answered,
obsolete = org.undod.Undo1.Error.Obsolete.

Windows carry WM_NAME, _NET_WM_NAME, WM_CLASS (name, "UndodTestApp"),
WM_HINTS (input), _NET_WM_PID (unless set_pid is false), WM_CLIENT_MACHINE
and, when asked, WM_TRANSIENT_FOR; never WM_PROTOCOLS, so a window manager
never waits on this process. X events are read continuously.
"""
import argparse
import collections
import json
import os
import socket
import subprocess
import sys
import time

from gi.repository import GLib
from json_lines import emit

try:
    from Xlib import X, Xatom, Xutil
    from Xlib import display as xdisplay
    from Xlib import error as xerror
except ImportError:  # the process still runs without X
    xdisplay = None

NAME = "org.undod.Undo1"
MANAGER_PATH = "/org/undod/Undo1"
CLIENT_PATH = "/org/undod/Undo1/Client"
MAP_TIMEOUT_S = 5


class Failure(Exception):
    """A command failed: becomes an error line with this name."""

    def __init__(self, name, message):
        super().__init__(message)
        self.name = name
        self.message = message


class App:
    def __init__(self, bus_address, display_name, display_explicit):
        self.loop = GLib.MainLoop()
        self.queue = collections.deque()
        self.busy = False
        self.current = None        # the command in progress
        self.eof = False
        self.windows = {}          # name -> xlib window
        self.wl_windows = []       # GTK windows on Wayland
        self.map_waiters = {}      # xid -> (cmd, timeout source id)
        self.stack_path = None
        self.children = []         # (Popen, the write end of its stdin) of "spawn"
        self.apply_behaviour = "ok"
        self.fail_name = "org.example.Error.Failed"
        self.hung = []             # Apply invocations never answered
        self.bus = None
        self.dpy = None
        self.x_lost = None
        self.display_name = None
        if display_name and xdisplay is not None:
            try:
                self.dpy = xdisplay.Display(display_name)
                self.display_name = display_name
            except Exception as error:  # Xlib raises several kinds
                if display_explicit:
                    sys.stderr.write("x11_app: cannot open display %s: %s\n" % (display_name, error))
                    sys.exit(1)
                sys.stderr.write("x11_app: running without X (%s: %s)\n" % (display_name, error))
        elif display_name and display_explicit:
            sys.stderr.write("x11_app: python-xlib is missing\n")
            sys.exit(1)
        if self.dpy is not None:
            self.dpy.set_error_handler(self.on_x_error)
            self.atoms = {}
            GLib.io_add_watch(self.dpy.fileno(), GLib.PRIORITY_DEFAULT,
                              GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR,
                              self.on_x_readable)
            # python-xlib may queue events internally while it waits for a
            # reply; the fd watch would not see those, so also drain often.
            GLib.timeout_add(50, self.drain_x)
        if bus_address:
            import dbus
            import dbus.mainloop.glib
            import dbus.service
            self.dbus = dbus
            self.dbus_exception = dbus.exceptions.DBusException
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            self.bus = dbus.bus.BusConnection(bus_address)
            self.client = make_client_object(self, dbus)(self.bus, CLIENT_PATH)
        GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT,
                          GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR,
                          self.on_stdin)
        self.stdin_buffer = b""

    # ---- stdin and the command queue -----------------------------------

    def on_stdin(self, fd, condition):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            if self.stdin_buffer.strip():
                self.queue.append(self.stdin_buffer.strip())
            self.stdin_buffer = b""
            self.pump()
            return False
        self.stdin_buffer += data
        while b"\n" in self.stdin_buffer:
            line, self.stdin_buffer = self.stdin_buffer.split(b"\n", 1)
            line = line.strip()
            if line:
                self.queue.append(line)
        self.pump()
        return True

    def pump(self):
        while not self.busy and self.queue:
            line = self.queue.popleft()
            try:
                cmd = json.loads(line.decode("utf-8", errors="replace"))
                if not isinstance(cmd, dict):
                    raise ValueError("a command is a JSON object")
            except ValueError as error:
                emit({"event": "error", "cmd": None, "name": "usage",
                      "message": "bad JSON line: %s" % error})
                continue
            self.busy = True
            self.current = cmd
            try:
                self.dispatch(cmd)
            except Failure as failure:
                self.fail(failure.name, failure.message)
            except getattr(self, "dbus_exception", Failure) as error:  # e.g. the bus went away
                self.dbus_fail(error)
            except Exception as error:  # never die on a bad command
                self.fail("x11" if xdisplay is not None and isinstance(error, xerror.XError)
                          else "usage", "%s: %s" % (type(error).__name__, error))
        if not self.busy and not self.queue and self.eof:
            self.loop.quit()

    def reply(self, obj):
        emit(obj)
        self.busy = False
        self.current = None
        GLib.idle_add(self.pump_once)

    def fail(self, name, message):
        cmd = self.current.get("cmd") if isinstance(self.current, dict) else None
        self.reply({"event": "error", "cmd": cmd, "name": name, "message": message})

    def dbus_fail(self, error):
        self.fail(error.get_dbus_name() or "org.freedesktop.DBus.Error.Failed",
                  error.get_dbus_message() or str(error))

    def pump_once(self):
        self.pump()
        return False

    def dispatch(self, cmd):
        name = cmd.get("cmd")
        handler = {
            "window": self.cmd_window, "destroy": self.cmd_destroy, "grab_key": self.cmd_grab_key,
            "register": self.cmd_register, "push": self.cmd_push,
            "push_group": self.cmd_push_group, "activate": self.cmd_activate,
            "close": self.cmd_close, "behaviour": self.cmd_behaviour,
            "wl_window": self.cmd_wl_window, "deactivate": self.cmd_deactivate,
            "spawn": self.cmd_spawn, "quit": self.cmd_quit,
        }.get(name)
        if handler is None:
            raise Failure("usage", "unknown command %r" % (name,))
        handler(cmd)

    # ---- X11 -----------------------------------------------------------

    def need_x(self):
        if self.x_lost:
            raise Failure("x11", "the X connection was lost: %s" % self.x_lost)
        if self.dpy is None:
            raise Failure("x11", "no X display (give --display or set DISPLAY)")

    def atom(self, name):
        if name not in self.atoms:
            self.atoms[name] = self.dpy.intern_atom(name)
        return self.atoms[name]

    def on_x_error(self, error, request):
        sys.stderr.write("x11_app: X error: %s\n" % (error,))

    def on_x_readable(self, fd, condition):
        return self.drain_x()

    def drain_x(self):
        if self.dpy is None:
            return False
        try:
            while self.dpy.pending_events():
                self.on_x_event(self.dpy.next_event())
        except Exception as error:  # connection closed
            sys.stderr.write("x11_app: X connection lost: %s\n" % (error,))
            self.dpy = None
            self.x_lost = str(error) or type(error).__name__
            for xid, (cmd, source) in list(self.map_waiters.items()):
                GLib.source_remove(source)
                self.map_waiters.pop(xid)
                self.fail("x11", "the X connection was lost: %s" % self.x_lost)
            emit({"event": "x11_closed", "message": self.x_lost})
            return False
        return True

    def on_x_event(self, event):
        if event.type == X.MapNotify:
            xid = event.window.id
            waiter = self.map_waiters.pop(xid, None)
            if waiter is not None:
                cmd, source = waiter
                GLib.source_remove(source)
                self.reply({"event": "window", "name": cmd["name"], "xid": xid})

    def window_xid(self, ref, what):
        if isinstance(ref, bool):
            raise Failure("usage", "%s must be an xid or a window name" % what)
        if isinstance(ref, int):
            return ref
        if isinstance(ref, str) and ref in self.windows:
            return self.windows[ref].id
        raise Failure("usage", "%s: no window of this process is named %r" % (what, ref))

    def cmd_window(self, cmd):
        self.need_x()
        name = cmd.get("name")
        if not isinstance(name, str) or not name:
            raise Failure("usage", "window needs a name")
        if name in self.windows:
            raise Failure("usage", "a window named %r exists" % name)
        title = str(cmd.get("title", name))
        transient = None
        if cmd.get("transient_for") is not None:
            transient = self.window_xid(cmd["transient_for"], "transient_for")
        dpy = self.dpy
        screen = dpy.screen()
        count = len(self.windows)
        window = screen.root.create_window(
            40 + 30 * count, 40 + 30 * count, 240, 120, 0, screen.root_depth,
            X.InputOutput, X.CopyFromParent,
            background_pixel=screen.white_pixel,
            event_mask=X.StructureNotifyMask)
        try:
            window.change_property(Xatom.WM_NAME, Xatom.STRING, 8, title.encode("latin-1"))
        except UnicodeEncodeError:  # ICCCM allows other encodings; EWMH WMs read _NET_WM_NAME
            window.change_property(Xatom.WM_NAME, self.atom("UTF8_STRING"), 8, title.encode())
        window.change_property(self.atom("_NET_WM_NAME"), self.atom("UTF8_STRING"), 8,
                               title.encode("utf-8"))
        window.set_wm_class(name, "UndodTestApp")
        window.set_wm_hints(flags=Xutil.InputHint, input=1)
        if cmd.get("set_pid", True):
            # "pid" makes the window claim another process (as a liar, or a
            # process in another PID namespace, would).
            window.change_property(self.atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [int(cmd.get("pid", os.getpid()))])
        machine = cmd.get("machine") or socket.gethostname()
        window.change_property(Xatom.WM_CLIENT_MACHINE, Xatom.STRING, 8,
                               str(machine).encode("latin-1", errors="replace"))
        if transient is not None:
            window.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [transient])
        self.windows[name] = window
        source = GLib.timeout_add(MAP_TIMEOUT_S * 1000, self.map_timeout, window.id)
        self.map_waiters[window.id] = (cmd, source)
        window.map()
        dpy.flush()
        self.drain_x()

    def map_timeout(self, xid):
        waiter = self.map_waiters.pop(xid, None)
        if waiter is not None:
            self.fail("x11", "window %r (0x%x) was not mapped within %d s"
                      % (waiter[0]["name"], xid, MAP_TIMEOUT_S))
        return False

    def cmd_destroy(self, cmd):
        self.need_x()
        name = cmd.get("name")
        window = self.windows.pop(name, None)
        if window is None:
            raise Failure("usage", "no window named %r" % (name,))
        window.destroy()
        self.dpy.sync()
        self.reply({"event": "destroyed", "name": name})

    def cmd_grab_key(self, cmd):
        self.need_x()
        from Xlib import XK
        keysym = XK.string_to_keysym(str(cmd.get("key", "")))
        keycode = self.dpy.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            raise Failure("usage", "no key %r on this keyboard" % (cmd.get("key"),))
        masks = {"shift": X.ShiftMask, "lock": X.LockMask, "control": X.ControlMask, "mod1": X.Mod1Mask,
                 "mod2": X.Mod2Mask, "mod3": X.Mod3Mask, "mod4": X.Mod4Mask, "mod5": X.Mod5Mask}
        modifiers = 0
        for name in cmd.get("modifiers", []):
            if name not in masks:
                raise Failure("usage", "unknown modifier %r" % (name,))
            modifiers |= masks[name]
        refused = xerror.CatchError(xerror.BadAccess)
        self.dpy.screen().root.grab_key(keycode, modifiers, True, X.GrabModeAsync, X.GrabModeAsync,
                                        onerror=refused)
        self.dpy.sync()
        if refused.get_error():
            raise Failure("x11", "another client holds that key already (BadAccess)")
        self.reply({"event": "grabbed", "keycode": keycode})

    # ---- D-Bus ---------------------------------------------------------

    def need_bus(self):
        if self.bus is None:
            raise Failure("usage", "no D-Bus connection (give --bus)")

    def variant(self, key, value, table, default_int):
        dbus = self.dbus
        if isinstance(value, dict) and "sig" in value:
            return typed(dbus, value["sig"], value.get("value"))
        if isinstance(value, bool):
            return dbus.Boolean(value, variant_level=1)
        if key in table:
            sig = table[key]
            if sig == "at":
                return dbus.Array([dbus.UInt64(self.window_xid(item, "windows")) for item in value],
                                  signature="t", variant_level=1)
            return typed(dbus, sig, value)
        if isinstance(value, str):
            return dbus.String(value, variant_level=1)
        if isinstance(value, int):
            return typed(dbus, default_int, value)
        if isinstance(value, float):
            return dbus.Double(value, variant_level=1)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return dbus.Array(value, signature="s", variant_level=1)
        raise Failure("usage", "cannot pass %r as an option or hint" % (key,))

    def vardict(self, mapping, table):
        if mapping is None:
            mapping = {}
        if not isinstance(mapping, dict):
            raise Failure("usage", "options and hints are JSON objects")
        return self.dbus.Dictionary({str(k): self.variant(k, v, table, "i") for k, v in mapping.items()},
                                    signature="sv")

    def stack_iface(self, cmd):
        path = cmd.get("stack") or self.stack_path
        if path is None:
            raise Failure("usage", "no stack: register first")
        return self.dbus.Interface(self.bus.get_object(NAME, path, introspect=False),
                                   "org.undod.Undo1.Stack")

    def cmd_register(self, cmd):
        self.need_bus()
        app_id = cmd.get("app_id")
        if not isinstance(app_id, str):
            raise Failure("usage", "register needs an app_id string")
        options = self.vardict(cmd.get("options"),
                               {"limit": "u", "process": "u", "max_bytes": "t", "windows": "at"})
        manager = self.dbus.Interface(self.bus.get_object(NAME, MANAGER_PATH, introspect=False),
                                      "org.undod.Undo1.Manager")

        def done(path):
            self.stack_path = str(path)
            self.reply({"event": "registered", "path": str(path)})

        manager.Register(app_id, options, reply_handler=done, error_handler=self.dbus_fail)

    def hints(self, cmd):
        return self.vardict(cmd.get("hints"), {"merge_window_ms": "u"})

    def cmd_push(self, cmd):
        self.need_bus()
        stack = self.stack_iface(cmd)
        undo = self.dbus.ByteArray(str(cmd.get("undo", "")).encode("utf-8"))
        redo = self.dbus.ByteArray(str(cmd.get("redo", "")).encode("utf-8"))
        stack.Push(str(cmd.get("name", "")), undo, redo, self.hints(cmd),
                   signature="sayaya{sv}",
                   reply_handler=lambda group: self.reply({"event": "pushed", "group": int(group)}),
                   error_handler=self.dbus_fail)

    def cmd_push_group(self, cmd):
        self.need_bus()
        stack = self.stack_iface(cmd)
        actions = self.dbus.Array(
            [(self.dbus.ByteArray(str(u).encode("utf-8")), self.dbus.ByteArray(str(r).encode("utf-8")))
             for u, r in cmd.get("actions", [])], signature="(ayay)")
        stack.PushGroup(str(cmd.get("name", "")), actions, self.hints(cmd),
                        signature="sa(ayay)a{sv}",
                        reply_handler=lambda group: self.reply({"event": "pushed", "group": int(group)}),
                        error_handler=self.dbus_fail)

    def cmd_activate(self, cmd):
        self.need_bus()
        self.stack_iface(cmd).Activate(signature="",
                                       reply_handler=lambda: self.reply({"event": "activated"}),
                                       error_handler=self.dbus_fail)

    def cmd_deactivate(self, cmd):
        self.need_bus()
        self.stack_iface(cmd).Deactivate(signature="",
                                         reply_handler=lambda: self.reply({"event": "deactivated"}),
                                         error_handler=self.dbus_fail)

    # ---- Wayland (GTK 3) -------------------------------------------------

    def cmd_wl_window(self, cmd):
        if not os.environ.get("WAYLAND_DISPLAY"):
            raise Failure("usage", "wl_window needs WAYLAND_DISPLAY")
        os.environ["GDK_BACKEND"] = "wayland"
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk
        if cmd.get("app_id"):
            GLib.set_prgname(str(cmd["app_id"]))
        if not Gtk.init_check(None)[0]:
            raise Failure("wayland", "GTK cannot open the Wayland display")
        window = Gtk.Window(title=str(cmd.get("title", "")))
        window.set_default_size(240, 120)
        window.show_all()
        self.wl_windows.append(window)
        self.reply({"event": "wl_window"})

    def cmd_close(self, cmd):
        self.need_bus()
        path = cmd.get("stack") or self.stack_path

        def done():
            if path == self.stack_path:
                self.stack_path = None
            self.reply({"event": "closed"})

        self.stack_iface(cmd).Close(self.dbus.Boolean(bool(cmd.get("discard", False))),
                                    signature="b", reply_handler=done, error_handler=self.dbus_fail)

    def cmd_behaviour(self, cmd):
        behaviour = cmd.get("apply")
        if behaviour not in ("ok", "fail", "hang", "obsolete"):
            raise Failure("usage", "apply must be ok, fail, hang or obsolete")
        self.apply_behaviour = behaviour
        self.fail_name = str(cmd.get("error", "org.example.Error.Failed"))
        self.reply({"event": "behaviour"})

    def cmd_spawn(self, cmd):
        # The child reads its stdin, a pipe whose other end only this
        # process holds: it ends when this process does, however it ends.
        read_end, write_end = os.pipe()
        child = subprocess.Popen(["/bin/sh", "-c", "exec cat >/dev/null"], stdin=read_end,
                                 stdout=subprocess.DEVNULL)
        os.close(read_end)
        self.children.append((child, write_end))
        self.reply({"event": "spawned", "pid": child.pid})

    def cmd_quit(self, cmd):
        emit({"event": "bye"})
        self.loop.quit()
        self.queue.clear()
        self.eof = True

    def on_apply(self, stack, group, direction, payloads, reply, error):
        emit({"event": "apply", "stack": str(stack), "group": int(group),
              "direction": str(direction),
              "payloads": [bytes(p).decode("utf-8", errors="replace") for p in payloads],
              "t": time.monotonic()})
        if self.apply_behaviour == "ok":
            reply()
        elif self.apply_behaviour == "fail":
            error(DBusError(self.fail_name, "the test app was told to fail"))
        elif self.apply_behaviour == "obsolete":
            error(DBusError("org.undod.Undo1.Error.Obsolete", "the test app says it is obsolete"))
        else:
            self.hung.append((reply, error))


DBusError = None


def typed(dbus, sig, value):
    """A variant of D-Bus signature sig holding value (a JSON value)."""
    simple = {"s": dbus.String, "o": dbus.ObjectPath, "b": dbus.Boolean, "y": dbus.Byte,
              "n": dbus.Int16, "q": dbus.UInt16, "i": dbus.Int32, "u": dbus.UInt32,
              "x": dbus.Int64, "t": dbus.UInt64, "d": dbus.Double, "g": dbus.Signature}
    if sig in simple:
        return simple[sig](value, variant_level=1)
    if sig == "ay":
        data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
        return dbus.ByteArray(data, variant_level=1)
    if sig.startswith("a") and sig[1:] in simple:
        return dbus.Array([simple[sig[1:]](item) for item in value], signature=sig[1:],
                          variant_level=1)
    raise Failure("usage", "unsupported signature %r" % (sig,))


def make_client_object(app, dbus):
    global DBusError

    class Error(dbus.exceptions.DBusException):
        def __init__(self, name, message):
            super().__init__(message, name=name)

    DBusError = Error

    class Client(dbus.service.Object):
        @dbus.service.method("org.undod.Undo1.Client", in_signature="otsaay", out_signature="",
                             byte_arrays=True, async_callbacks=("reply", "error"))
        def Apply(self, stack, group, direction, payloads, reply, error):
            app.on_apply(stack, group, direction, payloads, reply, error)

    return Client


def main():
    parser = argparse.ArgumentParser(description="scriptable X11 + D-Bus test application")
    parser.add_argument("--bus", help="D-Bus address of the bus undod is on")
    parser.add_argument("--display", help="X display (default: $DISPLAY)")
    args = parser.parse_args()
    display = args.display or os.environ.get("DISPLAY") or None
    app = App(args.bus, display, args.display is not None)
    emit({"event": "ready", "pid": os.getpid(),
          "bus_name": str(app.bus.get_unique_name()) if app.bus is not None else None,
          "display": app.display_name})
    app.loop.run()
    if app.dpy is not None:
        try:
            app.dpy.close()
        except Exception:
            pass
    sys.exit(0)


if __name__ == "__main__":
    main()
