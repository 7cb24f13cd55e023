#!/usr/bin/python3
"""How long undod's global undo key takes under sway: from the key press to
the app's Client.Apply.

Starts a private bus, a headless sway run as the unprivileged user
`undodtest` (made if missing; needs root), undod following it ($SWAYSOCK),
and Tests/Clients/x11_app.py with a GTK window on sway's Wayland display and
a stack; focuses the window, then alternates the undo and redo keys with
wtype (no delay between key events). t0 is taken just before wtype starts, so
the figures include wtype's own start-up; the baseline row (the whole run of
wtype for a key nobody binds, between the presses) shows how much that is.
Everything it starts is killed at the end.

  /usr/bin/python3 scripts/shake-latency-sway.py [--undod PATH] [--presses N] [--json]
"""
import argparse, json, os, queue, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USER = "undodtest"
TIMEOUT = 5.0


class Failure(Exception):
    """Something did not start or answer in time."""


def default_undod():
    release = os.path.join(REPO, ".build/release/undod")
    return release if os.path.exists(release) else os.path.join(REPO, ".build/debug/undod")


class Run:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="undod-sway-latency-")
        self.children = []

    def start(self, args, **kw):
        proc = subprocess.Popen(args, **kw)
        self.children.append(proc)
        return proc

    def start_bus(self):
        bus = self.start(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                          "--address=unix:path=%s/bus" % self.directory], stdout=subprocess.PIPE, text=True)
        self.bus = bus.stdout.readline().strip()
        if not self.bus:
            raise Failure("dbus-daemon did not print its address")

    def start_sway(self):
        subprocess.run("id -u %s >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin %s"
                       % (USER, USER), shell=True, check=True)
        runtime = os.path.join(self.directory, "runtime")
        os.mkdir(runtime)
        shutil.chown(runtime, USER)
        ready = os.path.join(runtime, "ready")
        os.mkfifo(ready, 0o666)
        os.chmod(ready, 0o666)
        config = os.path.join(runtime, "config")
        with open(config, "w") as f:
            f.write("output HEADLESS-1 resolution 1024x768\nxwayland disable\n"
                    "exec sh -c 'echo \"$SWAYSOCK $WAYLAND_DISPLAY\" > %s'\n" % ready)
        os.chmod(config, 0o644)
        os.chmod(self.directory, 0o755)
        self.start(["setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--", "env", "-i",
                    "XDG_RUNTIME_DIR=" + runtime, "HOME=" + runtime, "WLR_BACKENDS=headless",
                    "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman", "PATH=/usr/bin:/bin",
                    "sway", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(ready) as f:
            socket, wayland = f.readline().split()
        self.runtime = runtime
        self.env = dict(os.environ, SWAYSOCK=socket, WAYLAND_DISPLAY=os.path.join(runtime, wayland),
                        XDG_RUNTIME_DIR=runtime, DISPLAY="")

    def start_undod(self, path):
        config = os.path.join(self.directory, "undod.conf")
        open(config, "w").close()
        undod = self.start([path, "--address", self.bus, "--state-dir", os.path.join(self.directory, "state"),
                            "--config", config], env=dict(self.env, DBUS_SESSION_BUS_ADDRESS=""),
                           stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        for line in undod.stderr:
            if "sway answers at" in line:
                threading.Thread(target=lambda: [None for _ in undod.stderr], daemon=True).start()
                return
            if time.monotonic() > deadline:
                break
        raise Failure("undod did not follow sway")

    def stop(self):
        for proc in reversed(self.children):
            try:
                proc.kill()
                proc.wait(5)
            except Exception:
                pass
        shutil.rmtree(self.directory, ignore_errors=True)


class App:
    """Tests/Clients/x11_app.py with a window on sway; its lines read by a thread."""

    def __init__(self, run):
        self.lines = queue.Queue()
        self.proc = run.start(["/usr/bin/python3", os.path.join(REPO, "Tests/Clients/x11_app.py"), "--bus", run.bus],
                              env=run.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self.read, daemon=True).start()
        self.pid = self.next("ready")["pid"]

    def read(self):
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def next(self, event, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("x11_app.py printed no %s" % event)
            line = self.lines.get(timeout=left)
            if line.get("event") == event:
                return line

    def command(self, cmd, event):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.next(event)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--undod", default=default_undod())
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    run = Run()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    try:
        run.start_bus()
        run.start_sway()
        run.start_undod(options.undod)
        app = App(run)
        app.command({"cmd": "wl_window", "title": "Latency"}, "wl_window")
        app.command({"cmd": "register", "app_id": "org.example.Latency"}, "registered")
        app.command({"cmd": "push", "name": "Edit", "undo": "u", "redo": "r"}, "pushed")
        # The window is focusable once sway has mapped it (a script, not a test: it may ask again).
        deadline = time.monotonic() + TIMEOUT
        while subprocess.run(["swaymsg", "[pid=%d] focus" % app.pid], env=run.env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
            if time.monotonic() > deadline:
                raise Failure("sway never showed the window")
            time.sleep(0.05)
        keys = {"undo": ["-M", "ctrl", "-M", "alt", "z", "-m", "alt", "-m", "ctrl"],
                "redo": ["-M", "ctrl", "-M", "alt", "-M", "shift", "z", "-m", "shift", "-m", "alt", "-m", "ctrl"]}
        press, baseline = [], []
        for index in range(options.presses):
            direction = "undo" if index % 2 == 0 else "redo"
            t0 = time.monotonic()
            subprocess.run(["wtype"] + keys[direction], env=run.env, check=True)
            apply = app.next("apply")
            if apply["direction"] != direction:
                raise Failure("press %d: %s applied, not %s" % (index, apply["direction"], direction))
            press.append((apply["t"] - t0) * 1000)
            t0 = time.monotonic()
            subprocess.run(["wtype", "-M", "ctrl", "-M", "alt", "y", "-m", "alt", "-m", "ctrl"], env=run.env, check=True)
            baseline.append((time.monotonic() - t0) * 1000)
        rows = {"key press to Apply": press, "baseline: wtype alone": baseline}
        if options.json:
            print(json.dumps({name: {"median_ms": statistics.median(v), "p90_ms": percentile(v, 0.9), "max_ms": max(v),
                                     "count": len(v)} for name, v in rows.items()}, sort_keys=True))
        else:
            print("%-24s %9s %9s %9s  (%d presses, sway, undo and redo alternating)"
                  % ("", "median", "p90", "max", options.presses))
            for name, values in rows.items():
                print("%-24s %7.1f ms %6.1f ms %6.1f ms" % (name, statistics.median(values),
                                                             percentile(values, 0.9), max(values)))
        return 0
    except Failure as error:
        print("shake-latency-sway: %s" % error, file=sys.stderr)
        return 1
    finally:
        run.stop()


if __name__ == "__main__":
    sys.exit(main())
