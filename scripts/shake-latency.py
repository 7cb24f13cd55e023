#!/usr/bin/python3
"""How long undod's global undo key takes: from the key press to the app's
Client.Apply, and to undod's Notify reaching the notification server.

Starts a private desktop (dbus-daemon, Xvfb, openbox, dunst), undod on it and
Tests/Clients/x11_app.py with 10 groups, then alternates `xdotool key
ctrl+alt+z` and `ctrl+alt+shift+z`. t0 is taken just before xdotool starts, so
both figures include xdotool's own start-up and its --delay (12 ms by default)
between the key events of the chord (Ctrl down, Alt down, z down, ...); the
baseline row (the whole run of `xdotool key` for a key nobody grabs, between
the presses) shows how much that is. --key-delay 0 takes the delays out.
Everything it starts is killed at the end, also on Ctrl-C or failure.

  /usr/bin/python3 scripts/shake-latency.py [--undod PATH] [--presses N]
                                            [--key-delay MS] [--json]
"""
import argparse, json, math, os, queue, select, shutil, signal, statistics
import subprocess, sys, tempfile, threading, time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib
from Xlib import X, display as xdisplay

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 5.0  # seconds to wait for each press's Apply and Notify
BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
DUNSTRC = "[global]\n    font = Monospace 8\n    idle_threshold = 0\n" + "".join(
    '[urgency_%s]\n    timeout = 10\n    default_icon = ""\n' % u for u in ("low", "normal", "critical"))


class Failure(Exception):
    """Something did not start or answer in time: one line, then the cleanup."""


def default_undod():
    release = os.path.join(REPO, ".build/release/undod")
    return release if os.path.exists(release) else os.path.join(REPO, ".build/debug/undod")


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class Desktop:
    """The private processes, the script's bus connections, and their cleanup."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="undod-latency-")
        self.procs = []              # started processes, in order
        self.notifies = []           # monotonic arrival time of each Notify call
        self.cond = threading.Condition()
        self.undod_log = []
        self.env = dict(os.environ, XDG_CACHE_HOME=self.dir,
                        XDG_CONFIG_HOME=os.path.join(self.dir, "config"))
        self.loop = None

    def start(self, args, **kw):
        kw.setdefault("stdin", subprocess.DEVNULL)
        kw.setdefault("stderr", subprocess.DEVNULL)
        proc = subprocess.Popen(args, env=self.env, **kw)
        self.procs.append(proc)
        return proc

    def first_line(self, proc, what):
        line = proc.stdout.readline().strip()  # '' if it exits first
        if not line:
            raise Failure("%s did not start" % what)
        return line

    def start_bus(self):
        conf = write(self.dir, "bus.conf", BUS_CONF.format(dir=self.dir))
        proc = self.start(["dbus-daemon", "--config-file=" + conf, "--nofork", "--print-address=1"],
                          stdout=subprocess.PIPE, text=True)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.address = self.first_line(proc, "dbus-daemon")
        # The GLib loop runs in a thread: it serves both connections of the script.
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        self.bus = dbus.bus.BusConnection(self.address)
        monitor = dbus.bus.BusConnection(self.address)
        rule = "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"
        monitor.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                              "org.freedesktop.DBus.Monitoring", "BecomeMonitor", "asu", ([rule], 0))
        monitor.add_message_filter(self.on_monitored)
        self.monitor = monitor  # kept: the connection lives as long as the desktop
        self.loop = GLib.MainLoop()
        threading.Thread(target=self.loop.run, daemon=True).start()

    def on_monitored(self, connection, message):
        if message.get_member() == "Notify":
            now = time.monotonic()
            with self.cond:
                self.notifies.append(now)
                self.cond.notify_all()

    def start_and_wait_for_name(self, name, args, **kw):
        """Starts args and waits (at most 15 s) until name has an owner."""
        owned = threading.Event()
        receiver = self.bus.add_signal_receiver(
            lambda n, old, new: new and owned.set(), "NameOwnerChanged",
            "org.freedesktop.DBus", "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0=name)
        proc = self.start(args, **kw)
        deadline = time.monotonic() + 15
        if not self.bus.name_has_owner(name):
            while not owned.wait(0.1):  # the timeout only notices an early exit
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise Failure("%s did not take %s" % (args[0], name))
        receiver.remove()
        return proc

    def start_x(self):
        proc = self.start(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24",
                           "-nolisten", "tcp", "-noreset"], stdout=subprocess.PIPE, text=True)
        self.env["DISPLAY"] = self.display = ":" + self.first_line(proc, "Xvfb")
        # openbox: watch the root's properties until _NET_SUPPORTING_WM_CHECK appears.
        dpy = xdisplay.Display(self.display)
        root = dpy.screen().root
        root.change_attributes(event_mask=X.PropertyChangeMask)
        check = dpy.intern_atom("_NET_SUPPORTING_WM_CHECK")
        openbox = self.start(["openbox", "--sm-disable"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while root.get_full_property(check, X.AnyPropertyType) is None:
            if openbox.poll() is not None or time.monotonic() > deadline:
                raise Failure("openbox did not start managing " + self.display)
            if dpy.pending_events():          # a PropertyNotify: look again
                while dpy.pending_events():
                    dpy.next_event()
            else:                             # wait for one (the cap only rechecks openbox)
                select.select([dpy], [], [], 1.0)
        dpy.close()

    def start_undod(self, path):
        """Starts undod and waits until it owns its name and has grabbed the keys."""
        conf = write(self.dir, "undod.conf", "")
        proc = self.start_and_wait_for_name(
            "org.undod.Undo1", [path, "--address", self.address, "--state-dir",
                                os.path.join(self.dir, "state"), "--config", conf],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = threading.Event()  # set on the key notice, or at the log's end

        def read_log():  # also keeps the pipe drained
            for line in proc.stderr:
                self.undod_log.append(line)
                if "the global keys on" in line:  # its notice once the grabs are in place
                    seen.set()
            seen.set()
        threading.Thread(target=read_log, daemon=True).start()
        if not seen.wait(15) or proc.poll() is not None:
            raise Failure("undod did not grab its keys")

    def stop(self):
        if self.loop is not None:
            self.loop.quit()
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(3)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class App:
    """Tests/Clients/x11_app.py, driven by JSON lines; its output read by a thread."""

    def __init__(self, desktop):
        self.proc = desktop.start(
            ["/usr/bin/python3", os.path.join(REPO, "Tests/Clients/x11_app.py"),
             "--bus", desktop.address, "--display", desktop.display],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.events = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        self.next("ready", TIMEOUT * 3)

    def read(self):
        for line in self.proc.stdout:
            self.events.put(json.loads(line))
        self.events.put({"event": "exited"})

    def next(self, event, timeout):
        """The next line of that event (others are dropped), or Failure."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failure("x11_app: no %s within %g s" % (event, timeout))
            if line["event"] == event:
                return line
            if line["event"] in ("error", "exited"):
                raise Failure("x11_app: %s" % line)

    def command(self, reply, **cmd):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.next(reply, TIMEOUT * 3)


def measure(desktop, app, presses, key_delay):
    """Returns the samples (seconds) of key->Apply, key->Notify and the baseline."""
    apply_s, notify_s, base_s = [], [], []
    key = ["xdotool", "key"] + ([] if key_delay is None else ["--delay", str(key_delay)])
    for i in range(presses + 2):  # the first undo/redo pair warms up and is not counted
        shift = "shift+" if i % 2 else ""
        direction = "redo" if i % 2 else "undo"
        t0 = time.monotonic()
        press = desktop.start(key + ["ctrl+alt+" + shift + "z"])
        line = app.next("apply", TIMEOUT)
        if line["direction"] != direction:
            raise Failure("press %d: expected %s, the app applied %s" % (i, direction, line["direction"]))
        with desktop.cond:
            if not desktop.cond.wait_for(lambda: desktop.notifies and desktop.notifies[-1] >= t0,
                                         timeout=max(0.0, t0 + TIMEOUT - time.monotonic())):
                raise Failure("press %d: no Notify within %g s" % (i, TIMEOUT))
            notified = desktop.notifies[-1]
        if press.wait() != 0:
            raise Failure("xdotool key failed")
        # The baseline: the same xdotool, a key nobody grabs (it goes to the app's window).
        b0 = time.monotonic()
        subprocess.run(key + ["ctrl+alt+" + shift + "x"], env=desktop.env, check=True)
        if i >= 2:
            apply_s.append(line["t"] - t0)
            notify_s.append(notified - t0)
            base_s.append(time.monotonic() - b0)
    return {"key_to_apply": apply_s, "key_to_notify": notify_s, "xdotool_baseline": base_s}


def summary(samples):
    ordered = sorted(samples)
    ms = lambda s: round(s * 1000, 2)
    return {"median": ms(statistics.median(ordered)),
            "p90": ms(ordered[math.ceil(0.9 * len(ordered)) - 1]), "max": ms(ordered[-1])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--undod", default=default_undod(), help="the undod binary (default: %(default)s)")
    parser.add_argument("--presses", type=int, default=100, help="key presses to time (default: 100)")
    parser.add_argument("--key-delay", type=int, metavar="MS",
                        help="xdotool key --delay (default: xdotool's own, 12 ms)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args()
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    undod = os.path.abspath(args.undod)
    build = "release" if "/release/" in undod else "debug" if "/debug/" in undod else "unknown"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the cleanup below runs

    desktop = Desktop()
    try:
        desktop.start_bus()
        desktop.start_x()
        desktop.start_and_wait_for_name("org.freedesktop.Notifications",
                                        ["dunst", "-config", write(desktop.dir, "dunstrc", DUNSTRC)],
                                        stdout=subprocess.DEVNULL)
        desktop.start_undod(undod)
        app = App(desktop)
        xid = app.command("window", cmd="window", name="main", title="Latency")["xid"]
        app.command("registered", cmd="register", app_id="org.example.Latency", options={"title": "Latency"})
        for n in range(10):
            app.command("pushed", cmd="push", name="Edit %d" % (n + 1), undo="u%d" % n, redo="r%d" % n)
        subprocess.run(["xdotool", "windowactivate", "--sync", str(xid)], env=desktop.env, check=True)
        results = measure(desktop, app, args.presses, args.key_delay)
    except (Failure, OSError, subprocess.CalledProcessError) as failure:
        log = "".join(desktop.undod_log[-10:])
        sys.exit("shake-latency: %s%s" % (failure, "\nundod's log ends:\n" + log if log else ""))
    except KeyboardInterrupt:
        sys.exit(130)
    finally:
        desktop.stop()

    report = {"undod": undod, "build": build, "cpus": os.cpu_count(), "presses": args.presses,
              "key_delay_ms": 12 if args.key_delay is None else args.key_delay,
              "ms": {name: summary(s) for name, s in results.items()},
              "samples_ms": {name: [round(x * 1000, 3) for x in s] for name, s in results.items()}}
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return
    print("undod:   %s (%s build)\nCPUs:    %d\npresses: %d, alternating Ctrl+Alt+z and Ctrl+Alt+Shift+z"
          " (xdotool key --delay %d)\n" % (undod, build, report["cpus"], args.presses, report["key_delay_ms"]))
    print("%-34s %9s %9s %9s" % ("ms", "median", "p90", "max"))
    for name, label in (("key_to_apply", "key -> Client.Apply"),
                        ("key_to_notify", "key -> Notify at dunst"),
                        ("xdotool_baseline", "xdotool key, ungrabbed (baseline)")):
        row = report["ms"][name]
        print("%-34s %9.2f %9.2f %9.2f" % (label, row["median"], row["p90"], row["max"]))
    print("\nBoth key rows include xdotool's start-up and its delays between the chord's key\n"
          "events; the baseline is xdotool's whole run (start-up, every delay, exit).")


if __name__ == "__main__":
    main()
