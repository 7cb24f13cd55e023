#!/usr/bin/python3
"""How long undod's global undo key takes on a Wayland desktop: from the key
press to the app's Client.Apply, on GNOME Shell, KWin or sway of the host
(bookworm) or of a newer Debian's root (scripts/desktop-root.sh).

Starts a private bus, the compositor headless (a root's under bwrap as the
unprivileged user `undodtest`, as the compositor suites run it; needs
root), undod following it, and Tests/Clients/x11_app.py with a GTK window
on the compositor's display and a stack; focuses the window, then
alternates undo and redo. Each desktop's own key path presses them:

  gnome  mutter's RemoteDesktop (NotifyKeyboardKeysym), to the extension's keybinding
  kwin   kglobalaccel's invokeShortcut, to the KWin script's shortcut (KWin
         has no protocol for injecting keys)
  sway   wtype (its virtual keyboard), to undod's sway binding

One undo and redo go first, uncounted (the tool's first key sets up its
virtual keyboard); on GNOME each press has a RemoteDesktop session of its
own, made before t0. t0 is taken just before the press is sent; the baseline row is the same
press of a key nobody binds (sway: wtype's own run; gnome, kwin: the call's
round trip), which shows how much of the figure is the tool's. Everything it
starts is killed at the end.

  /usr/bin/python3 scripts/shake-latency-wayland.py --desktop gnome|kwin|sway
      [--suite bookworm|trixie|forky|sid] [--undod PATH] [--presses N] [--json]
"""
import argparse, json, os, queue, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

import dbus

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USER = "undodtest"
TIMEOUT = 60.0
CTRL, ALT, SHIFT, Z, Y = 0xffe3, 0xffe9, 0xffe1, 0x7a, 0x79


class Failure(Exception):
    """Something did not start or answer in time."""


def default_undod():
    release = os.path.join(REPO, ".build/release/undod")
    return release if os.path.exists(release) else os.path.join(REPO, ".build/debug/undod")


def wait_for(what, test, timeout=TIMEOUT):
    """Asks `test` until it holds (a script, not a test: it may ask again)."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise Failure(what)
        time.sleep(0.05)


class Run:
    def __init__(self, suite):
        self.suite = suite
        self.directory = tempfile.mkdtemp(prefix="undod-wayland-latency-")
        os.chmod(self.directory, 0o755)
        self.children = []
        self.undod_env = {}
        self.activate = lambda: None
        subprocess.run("id -u %s >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin %s"
                       % (USER, USER), shell=True, check=True)
        self.root = None
        if suite != "bookworm":
            self.root = subprocess.run(["bash", os.path.join(REPO, "scripts/desktop-root.sh"), suite], check=True,
                                       stdout=subprocess.PIPE, text=True).stdout.strip()
        self.runtime = self.mkdir("runtime", 0o700)
        self.home = self.mkdir("home", 0o700)

    def mkdir(self, name, mode):
        path = os.path.join(self.directory, name)
        os.makedirs(path, mode=mode, exist_ok=True)
        return path

    def start(self, args, **kw):
        proc = subprocess.Popen(args, **kw)
        self.children.append(proc)
        return proc

    def as_user(self, command):
        """The compositor's command line: as the test user, in the root if any."""
        prefix = ["setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--"]
        if self.root:
            prefix += ["bwrap", "--bind", self.root, "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
                       "--ro-bind", "/sys", "/sys", "--bind", "/tmp", "/tmp", "--ro-bind", "/etc/passwd", "/etc/passwd",
                       "--ro-bind", "/etc/group", "/etc/group", "--tmpfs", "/run", "--die-with-parent", "--"]
        return prefix + command

    def start_bus(self):
        self.bus = self.private_bus("session")
        self.system_bus = self.private_bus("system")   # a stand-in: GNOME Shell wants one
        self.connection = dbus.bus.BusConnection(self.bus)

    def private_bus(self, name):
        folder = self.mkdir(name, 0o755)
        config = os.path.join(folder, "bus.conf")
        with open(config, "w") as f:
            f.write('<busconfig><type>session</type><listen>unix:dir=%s</listen><auth>EXTERNAL</auth>'
                    '<policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/>'
                    '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>' % folder)
        bus = self.start(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        address = bus.stdout.readline().strip()
        if not address:
            raise Failure("dbus-daemon did not print its address")
        return address

    def owns(self, name):
        return self.connection.name_has_owner(name)

    def start_compositor(self, desktop):
        subprocess.run(["chown", "-R", "%s:%s" % (USER, USER), self.runtime, self.home], check=True)
        base = ["env", "-i", "PATH=/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS=" + self.bus,
                "XDG_RUNTIME_DIR=" + self.runtime, "HOME=" + self.home]
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if desktop == "gnome":
            self.start(self.as_user(base + ["GSETTINGS_BACKEND=keyfile", "XDG_CURRENT_DESKTOP=GNOME",
                                            "DBUS_SYSTEM_BUS_ADDRESS=" + self.system_bus,
                                            "gnome-shell", "--headless", "--virtual-monitor", "1024x768",
                                            "--wayland", "--no-x11", "--wayland-display", "latency"]), **quiet)
            self.env = {"WAYLAND_DISPLAY": "latency", "XDG_CURRENT_DESKTOP": "GNOME"}
            wait_for("GNOME Shell never took its name", lambda: self.owns("org.gnome.Shell"))
        elif desktop == "kwin":
            kwin = "kwin_wayland"
            if not self.root:   # the host's binary carries a file capability a container may not grant
                kwin = os.path.join(self.directory, "kwin_wayland")
                shutil.copy("/usr/bin/kwin_wayland", kwin)
                os.chmod(kwin, 0o755)
            self.start(self.as_user(base + ["QT_QPA_PLATFORM=wayland", kwin, "--virtual", "--socket", "latency",
                                            "--no-lockscreen", "--no-global-shortcuts"]), **quiet)
            self.env = {"WAYLAND_DISPLAY": "latency", "XDG_CURRENT_DESKTOP": "KDE"}
            # Where undod finds its KWin script (undod's alone: GTK needs the system's data).
            self.undod_env = {"XDG_DATA_HOME": os.path.join(self.home, "share"),
                              "XDG_DATA_DIRS": os.path.join(self.home, "share")}
            wait_for("KWin never took its name", lambda: self.owns("org.kde.KWin"))
        else:
            ready = os.path.join(self.runtime, "ready")
            os.mkfifo(ready, 0o666)
            os.chmod(ready, 0o666)
            config = os.path.join(self.runtime, "config")
            with open(config, "w") as f:
                f.write("output HEADLESS-1 resolution 1024x768\nxwayland disable\n"
                        "exec sh -c 'echo \"$SWAYSOCK $WAYLAND_DISPLAY\" > %s'\n" % ready)
            os.chmod(config, 0o644)
            self.start(self.as_user(base + ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1",
                                            "WLR_RENDERER=pixman", "sway", "-c", config]), **quiet)
            with open(ready) as f:
                socket, wayland = f.readline().split()
            self.env = {"SWAYSOCK": socket, "WAYLAND_DISPLAY": os.path.join(self.runtime, wayland)}
        self.env.update(XDG_RUNTIME_DIR=self.runtime, DISPLAY="")

    def start_undod(self, path):
        config = os.path.join(self.directory, "undod.conf")
        open(config, "w").close()
        self.start([path, "--address", self.bus, "--state-dir", os.path.join(self.directory, "state"),
                    "--config", config, "--verbose"], env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS="", **self.env, **self.undod_env),
                   stderr=open(os.environ.get("UNDOD_LATENCY_LOG", os.devnull), "w"))
        wait_for("undod never took its name", lambda: self.owns("org.undod.Undo1"))

    def strategy(self):
        manager = self.connection.get_object("org.undod.Undo1", "/org/undod/Undo1")
        return str(manager.Get("org.undod.Undo1.Manager", "FocusStrategy", dbus_interface="org.freedesktop.DBus.Properties"))

    def stop(self):
        for proc in reversed(self.children):
            try:
                proc.kill()
                proc.wait(5)
            except Exception:
                pass
        subprocess.run(["pkill", "-KILL", "-u", USER], stderr=subprocess.DEVNULL)
        shutil.rmtree(self.directory, ignore_errors=True)


def install_gnome_extensions(run):
    """undod's extension as `make install` puts it, the tests' hand, both enabled."""
    extensions = os.path.join(run.home, ".local/share/gnome-shell/extensions")
    settings = os.path.join(run.home, ".config/glib-2.0/settings")
    os.makedirs(settings, exist_ok=True)
    form = "43" if run.root is None else "45"
    subprocess.run(["bash", os.path.join(REPO, "scripts/gnome-extension.sh"), extensions, form], check=True,
                   stdout=subprocess.DEVNULL)
    shutil.copytree(os.path.join(REPO, "Tests/Clients/gnome-shell", form, "undod-test@undod.test"),
                    os.path.join(extensions, "undod-test@undod.test"))
    with open(os.path.join(settings, "keyfile"), "w") as f:
        f.write("[org/gnome/shell]\nenabled-extensions=['undod-test@undod.test', 'undod@undod.org']\n\n"
                "[org/gnome/desktop/peripherals/keyboard]\nrepeat=false\n")


def install_kwin_script(run):
    shutil.copytree(os.path.join(REPO, "Service/kwin/undod"), os.path.join(run.home, "share/kwin/scripts/undod"))


class App:
    """Tests/Clients/x11_app.py with a window on the compositor; its lines read by a thread."""

    def __init__(self, run):
        self.lines = queue.Queue()
        self.proc = run.start(["/usr/bin/python3", os.path.join(REPO, "Tests/Clients/x11_app.py"), "--bus", run.bus],
                              env=dict(os.environ, **run.env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self.read, daemon=True).start()
        self.pid = self.next("ready")["pid"]

    def read(self):
        for line in self.proc.stdout:
            try:
                self.lines.put(json.loads(line))
            except ValueError:
                print("x11_app.py: %s" % line.rstrip(), file=sys.stderr)

    def next(self, event, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("x11_app.py printed no %s" % event)
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise Failure("x11_app.py printed no %s" % event)
            if line.get("event") == event:
                return line

    def command(self, cmd, event):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.next(event)


class Keys:
    """The desktop's own way of pressing the undo and redo keys (and one nobody binds)."""

    def __init__(self, run, desktop):
        self.run, self.desktop = run, desktop
        self.session = None
        if desktop == "kwin":
            self.kglobalaccel = dbus.Interface(run.connection.get_object("org.kde.kglobalaccel", "/component/kwin"),
                                               "org.kde.kglobalaccel.Component")

    def ready(self):
        """Before t0: GNOME's presses go through a RemoteDesktop session of
        their own each (as the tests press them: mutter 50 drops the keys
        of a session kept open between presses)."""
        if self.desktop != "gnome":
            return
        if self.session is not None:
            self.session.Stop()
        name = "org.gnome.Mutter.RemoteDesktop"
        path = self.run.connection.get_object(name, "/org/gnome/Mutter/RemoteDesktop").CreateSession(dbus_interface=name)
        self.session = dbus.Interface(self.run.connection.get_object(name, path), name + ".Session")
        self.session.Start()

    def press(self, direction):
        if self.desktop == "gnome":
            keys = [CTRL, ALT, Z] if direction == "undo" else [CTRL, ALT, SHIFT, Z] if direction == "redo" else [CTRL, ALT, Y]
            for key in keys:
                self.session.NotifyKeyboardKeysym(dbus.UInt32(key), True)
            for key in reversed(keys):
                self.session.NotifyKeyboardKeysym(dbus.UInt32(key), False)
        elif self.desktop == "kwin":
            name = {"undo": "undod-undo", "redo": "undod-redo"}.get(direction, "undod-latency-nobody")
            try:
                self.kglobalaccel.invokeShortcut(name)
            except dbus.DBusException:
                pass
        else:
            keys = {"undo": ["-M", "ctrl", "-M", "alt", "z", "-m", "alt", "-m", "ctrl"],
                    "redo": ["-M", "ctrl", "-M", "alt", "-M", "shift", "z", "-m", "shift", "-m", "alt", "-m", "ctrl"]}
            subprocess.run(["wtype"] + keys.get(direction, ["-M", "ctrl", "-M", "alt", "y", "-m", "alt", "-m", "ctrl"]),
                           env=dict(os.environ, **self.run.env), check=True)


def focus(run, desktop, app):
    if desktop == "gnome":
        hand = dbus.Interface(run.connection.get_object("org.gnome.Shell", "/org/undod/Test/Shell"), "org.undod.Test.Shell")
        wait_for("the tests' hand never answered", lambda: _try(lambda: hand.Started(timeout=60) or True))
        # A Shell may put the window in front only once mapped, after an
        # early activation: activate until undod follows (the caller waits).
        run.activate = lambda: hand.Focus(dbus.UInt32(app.pid))
        wait_for("GNOME Shell never showed the window", lambda: bool(run.activate()))
    elif desktop == "kwin":
        script = os.path.join(run.directory, "focus.js")
        with open(script, "w") as f:
            f.write("var w = workspace.windowList ? workspace.windowList() : workspace.clientList();"
                    "for (var i = 0; i < w.length; i++) if (w[i].pid == %d) {"
                    " if (workspace.activeWindow !== undefined) workspace.activeWindow = w[i];"
                    " else workspace.activeClient = w[i]; }" % app.pid)
        os.chmod(run.directory, 0o755)
        scripting = dbus.Interface(run.connection.get_object("org.kde.KWin", "/Scripting"), "org.kde.kwin.Scripting")
        scripting.loadScript(script, "latency-focus", signature="ss")
        scripting.start()
    else:
        wait_for("sway never showed the window", lambda: subprocess.run(
            ["swaymsg", "[pid=%d] focus" % app.pid], env=dict(os.environ, **run.env),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0)


def _try(call):
    try:
        return call()
    except dbus.DBusException:
        return False


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--desktop", choices=["gnome", "kwin", "sway"], required=True)
    parser.add_argument("--suite", default="bookworm", choices=["bookworm", "trixie", "forky", "sid"])
    parser.add_argument("--undod", default=default_undod())
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    run = Run(options.suite)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    try:
        run.start_bus()
        if options.desktop == "gnome":
            install_gnome_extensions(run)
        elif options.desktop == "kwin":
            install_kwin_script(run)
        run.start_compositor(options.desktop)
        run.start_undod(options.undod)
        wait_for("undod never followed the compositor", lambda: run.strategy() == options.desktop)
        app = App(run)
        app.command({"cmd": "wl_window", "title": "Latency"}, "wl_window")
        app.command({"cmd": "register", "app_id": "org.example.Latency"}, "registered")
        app.command({"cmd": "push", "name": "Edit", "undo": "u", "redo": "r"}, "pushed")
        focus(run, options.desktop, app)
        focused = run.connection.get_object("org.undod.Undo1", "/org/undod/Undo1")
        wait_for("undod never focused the app's stack", lambda: run.activate() is None or str(focused.Get(
            "org.undod.Undo1.Manager", "FocusedStack", dbus_interface="org.freedesktop.DBus.Properties")) != "/")
        keys = Keys(run, options.desktop)
        # One undo and redo first, not counted: a new RemoteDesktop session
        # makes its virtual keyboard on the first key, which no user's press pays.
        for direction in ["undo", "redo"]:
            keys.ready()
            keys.press(direction)
            app.next("apply")
        press, baseline = [], []
        for index in range(options.presses):
            direction = "undo" if index % 2 == 0 else "redo"
            keys.ready()
            t0 = time.monotonic()
            keys.press(direction)
            apply = app.next("apply")
            if apply["direction"] != direction:
                raise Failure("press %d: %s applied, not %s" % (index, apply["direction"], direction))
            press.append((apply["t"] - t0) * 1000)
            keys.ready()
            t0 = time.monotonic()
            keys.press("nobody")
            baseline.append((time.monotonic() - t0) * 1000)
        rows = {"key press to Apply": press, "baseline: the press alone": baseline}
        label = "%s on %s" % (options.desktop, options.suite)
        if options.json:
            print(json.dumps({"desktop": label, **{name: {"median_ms": statistics.median(v), "p90_ms": percentile(v, 0.9),
                                                          "max_ms": max(v), "count": len(v)} for name, v in rows.items()}},
                             sort_keys=True))
        else:
            print("%-26s %9s %9s %9s  (%d presses, %s, undo and redo alternating)"
                  % ("", "median", "p90", "max", options.presses, label))
            for name, values in rows.items():
                print("%-26s %7.1f ms %6.1f ms %6.1f ms" % (name, statistics.median(values),
                                                             percentile(values, 0.9), max(values)))
        return 0
    except Failure as error:
        print("shake-latency-wayland: %s" % error, file=sys.stderr)
        return 1
    finally:
        run.stop()


if __name__ == "__main__":
    sys.exit(main())
