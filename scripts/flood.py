#!/usr/bin/python3
"""Floods an undod on a private bus and reports what a healthy client sees.

Usage: flood.py UNDOD_BINARY [--quick] [--only big|huge|empty|stacks|connections] [--leave kill|close] [--no-floor]

undod runs with limits.max_total_bytes = 64MiB. While a prober pushes a
16-byte group every 10 ms (and times each Push), four floods run one after
another: big payloads (1 MiB groups from four connections), huge calls (one
connection's single Pushes of 60 MiB, stored, and 100 MiB, refused), empty actions
(PushGroups of 100,000 empty actions), and 10,000 stacks (40 connections
registering 250 stacks each, pushing to each, then leaving the bus at once:
their processes are killed in the same instant, so the bus drops all 40
connections together; with --leave close each closes its connection and
exits, which also has 40 Python interpreters wake and finalize at once on
the same CPUs: a storm of the flood's own that cost the floor's healthy
client up to 44 ms by itself), and many connections (400 connections
from 50 processes, each sending one 4 MiB Push at once, 1.6 GB in all,
past the bus's 1 GB queue for one connection, while one more app quits:
printed after its row, how many pushes undod stored, how many it refused
with its own Busy, how many the bus refused with LimitsExceeded,
whether the app that quit was seen leaving — its stack's Owner empty —
and what came of an undo asked just before and answered during the
flood: its group handed out once, the next undo the group below).
Every stack is persistent (the default). Printed per phase: the prober's
slowest and 99th-percentile Push, the most a Push took beyond a Ping to the
bus daemon sent just before it ("over bus": the spec's measure, the bus's
own delay at that moment taken out), when the slowest was sent (seconds into the
phase; for 10,000 stacks also from the moment the 40 connections are told to
leave, "at leave"), undod's peak RSS (sampled every 20 ms) and the store's
files (database and write-ahead log) at the end of the phase.
Goals (the hostile-world issue): RSS under 64 + 80 MiB, every healthy Push
under 50 ms, the files within 2 × 64 MiB + 16 MiB.

Each phase also floods the floor, just before undod and on a bus of its own:
`undod-bench --floor-service` (found next to UNDOD_BINARY), which answers
every call at once and does nothing. Its slowest and 99th-percentile healthy
Push are what the bus, libdbus and the flooding clients alone cost on this
machine; undod's figures are read against them. --no-floor skips it.

--only big|huge|empty|stacks|connections runs one phase. FLOOD_PERF=FILE records undod with
`perf record -g` into FILE; FLOOD_LOG=1 prints the end of undod's log.
"""
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import dbus

QUICK = "--quick" in sys.argv
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
LEAVE = sys.argv[sys.argv.index("--leave") + 1] if "--leave" in sys.argv else "kill"
if LEAVE not in ("kill", "close"):
    sys.exit(f"flood.py: --leave takes kill or close, not {LEAVE!r}")
undod_binary = sys.argv[1]
floor_binary = os.path.join(os.path.dirname(os.path.abspath(undod_binary)), "undod-bench")
if "--no-floor" in sys.argv or not os.path.exists(floor_binary):
    floor_binary = None
scratch = tempfile.mkdtemp(prefix="undod-flood-")


class Target:
    """A private bus of its own and the service under test on it: undod, or
    the floor (`undod-bench --floor-service`, which answers and does nothing)."""

    def __init__(self, name, command):
        self.directory = os.path.join(scratch, name)
        os.makedirs(os.path.join(self.directory, "state"))
        config = os.path.join(self.directory, "bus.conf")
        with open(config, "w") as file:
            file.write(f"""<busconfig><type>session</type><listen>unix:dir={self.directory}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
<limit name="max_incoming_bytes">1000000000</limit><limit name="max_outgoing_bytes">1000000000</limit>
<limit name="max_message_size">1000000000</limit><limit name="max_connections_per_user">100000</limit>
<limit name="max_replies_per_connection">50000</limit></busconfig>""")
        self.bus = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.bus.stdout.readline().strip()
        self.log = os.path.join(self.directory, "service.log")
        self.service = subprocess.Popen(command(self), stderr=open(self.log, "w"))
        for _ in range(200):
            try:
                manager(dbus.bus.BusConnection(self.address)).Register("org.flood.ready",
                                                                      dbus.Dictionary({}, signature="sv"))
                break
            except dbus.exceptions.DBusException:
                time.sleep(0.05)

    def store_mib(self):
        state = os.path.join(self.directory, "state")
        return sum(os.path.getsize(os.path.join(state, name)) for name in os.listdir(state)
                   if name.startswith(("history.sqlite3", "history.journal"))) / (1 << 20)

    def rss_kib(self):
        with open(f"/proc/{self.service.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.service.terminate()
        self.service.wait()
        self.bus.terminate()


def undod_command(target):
    with open(os.path.join(target.directory, "undod.conf"), "w") as file:
        file.write("[limits]\nmax_total_bytes = 64MiB\n")
    return [undod_binary, "--address", target.address, "--config", os.path.join(target.directory, "undod.conf"),
            "--state-dir", os.path.join(target.directory, "state")]


def floor_command(target):
    return [floor_binary, "--floor-service", target.address]


def manager(connection):
    return dbus.Interface(connection.get_object("org.undod.Undo1", "/org/undod/Undo1"), "org.undod.Undo1.Manager")


def stack(connection, path):
    return dbus.Interface(connection.get_object("org.undod.Undo1", path), "org.undod.Undo1.Stack")


class Probe:
    """A healthy client pushing every 10 ms, and the service's RSS, while a phase runs."""

    def __init__(self, target):
        self.target = target
        self.connection = dbus.bus.BusConnection(target.address)
        self.path = manager(self.connection).Register("org.flood.healthy", dbus.Dictionary({}, signature="sv"))
        self.stack = stack(self.connection, self.path)
        self.bus = dbus.Interface(self.connection.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus"),
                                  "org.freedesktop.DBus")

    def run(self, phase):
        """Runs one phase; returns the slowest Push (ms), the 99th percentile (ms),
        when the slowest was sent (s into the phase, and s from the phase's marked
        moment or None), the peak RSS (KiB) and how many Pushes were timed."""
        latencies, peak, running = [], [0], [True]
        moment = multiprocessing.Value("d", 0.0)

        def sample():
            while running[0]:
                peak[0] = max(peak[0], self.target.rss_kib())
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        process = multiprocessing.Process(target=phase, args=(self.target.address, moment))
        began = time.monotonic()
        process.start()
        over_bus = []
        while process.is_alive():
            # The bus's own delay at this moment: a Ping to the bus daemon.
            start = time.monotonic()
            self.bus.GetId(timeout=120)
            ping = (time.monotonic() - start) * 1000
            start = time.monotonic()
            self.stack.Push("Typing", dbus.ByteArray(b"u" * 8), dbus.ByteArray(b"r" * 8),
                            dbus.Dictionary({}, signature="sv"), timeout=120)
            latencies.append(((time.monotonic() - start) * 1000, start))
            over_bus.append(latencies[-1][0] - ping)
            time.sleep(0.01)
        self.over_bus = max(over_bus) if over_bus else 0
        running[0] = False
        sampler.join()
        slowest, sent = max(latencies)
        at_moment = sent - moment.value if moment.value else None
        ordered = sorted(latency for latency, _ in latencies)
        return slowest, ordered[int(len(ordered) * 0.99) - 1], sent - began, at_moment, peak[0], len(ordered)


def big_payloads(address, moment):
    def one(index):
        connection = dbus.bus.BusConnection(address)
        path = manager(connection).Register(f"org.flood.big{index}", dbus.Dictionary({}, signature="sv"))
        payload = dbus.ByteArray(bytes(1 << 20))
        for _ in range(40 if QUICK else 200):
            stack(connection, path).Push("Big", payload, dbus.ByteArray(b""), dbus.Dictionary({}, signature="sv"))
    workers = [multiprocessing.Process(target=one, args=(index,)) for index in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


def huge_calls(address, moment):
    """One connection sends single huge Pushes: 60 MiB (within the stack's
    64 MiB MaxBytes, stored) and 100 MiB (60 + 40: over it, refused with
    PayloadTooLarge; one array holds at most 64 MiB)."""
    connection = dbus.bus.BusConnection(address)
    path = manager(connection).Register("org.flood.huge", dbus.Dictionary({}, signature="sv"))
    for undo, redo in ([(60, 0), (60, 40)] if QUICK else [(60, 0), (60, 40), (60, 0), (60, 40), (60, 40)]):
        try:
            stack(connection, path).Push("Huge", dbus.ByteArray(bytes(undo << 20)), dbus.ByteArray(bytes(redo << 20)),
                                         dbus.Dictionary({}, signature="sv"), timeout=120)
        except dbus.exceptions.DBusException as error:
            if redo == 0 or "PayloadTooLarge" not in error.get_dbus_name():
                raise


def empty_actions(address, moment):
    connection = dbus.bus.BusConnection(address)
    path = manager(connection).Register("org.flood.empty", dbus.Dictionary({}, signature="sv"))
    empties = dbus.Array([dbus.Struct((dbus.ByteArray(b""), dbus.ByteArray(b"")))] * 100_000, signature="(ayay)")
    for _ in range(5 if QUICK else 20):
        stack(connection, path).PushGroup("Nothing", empties, dbus.Dictionary({}, signature="sv"), timeout=120)


def many_stacks(address, moment):
    def one(index, ready, go):
        connection = dbus.bus.BusConnection(address)
        for number in range(250):
            path = manager(connection).Register(f"org.flood.many{index}",
                                                dbus.Dictionary({"document": f"d{number}"}, signature="sv"))
            stack(connection, path).Push("One", dbus.ByteArray(b"u"), dbus.ByteArray(b"r"),
                                         dbus.Dictionary({}, signature="sv"))
        ready.release()
        go.acquire()
        connection.close()
    count = 8 if QUICK else 40
    ready, go = multiprocessing.Semaphore(0), multiprocessing.Semaphore(0)
    workers = [multiprocessing.Process(target=one, args=(index, ready, go)) for index in range(count)]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.acquire()
    moment.value = time.monotonic()
    if LEAVE == "kill":
        for worker in workers:
            worker.kill()
    else:
        for _ in workers:
            go.release()
    for worker in workers:
        worker.join()
    time.sleep(1)


def many_connections(address, moment):
    """400 connections (100 with --quick), 8 to a process, each sending one
    4 MiB Push at once; one more app quits meanwhile. Prints what came of it."""
    outcomes = multiprocessing.Queue()

    def one(index):
        import dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        loop, left = GLib.MainLoop(), [8]
        payload = dbus.ByteArray(bytes(4 << 20))
        # dbus-python closes a connection nobody holds, its call unanswered.
        connections = []

        def done(name):
            outcomes.put(name)
            left[0] -= 1
            if left[0] == 0:
                loop.quit()
        for number in range(8):
            connection = dbus.bus.BusConnection(address)
            connections.append(connection)
            path = manager(connection).Register(f"org.flood.conn{index}.{number}", dbus.Dictionary({}, signature="sv"))
            stack(connection, path).Push("Big", payload, dbus.ByteArray(b""), dbus.Dictionary({}, signature="sv"),
                                         timeout=300, reply_handler=lambda *_: done("stored"),
                                         error_handler=lambda error: done(error.get_dbus_name()))
        loop.run()

    watcher = dbus.bus.BusConnection(address)
    leaver = subprocess.Popen([sys.executable, "-c", """
import sys, dbus
connection = dbus.bus.BusConnection(sys.argv[1])
manager = dbus.Interface(connection.get_object("org.undod.Undo1", "/org/undod/Undo1"), "org.undod.Undo1.Manager")
print(manager.Register("org.flood.leaver", dbus.Dictionary({}, signature="sv")), flush=True)
sys.stdin.readline()
""", address], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    leaver_path = leaver.stdout.readline().strip()
    # An app asked to undo just before the flood, answering 0.4 s later,
    # during it; it prints the group of every Apply it is handed. (Not on
    # the floor, which applies nothing.)
    on_undod = "/floor/" not in address
    answerer = subprocess.Popen([sys.executable, "-c", ANSWERER, address], stdout=subprocess.PIPE, text=True)
    answerer_path = answerer.stdout.readline().strip()
    undos = []

    def undo():
        if not on_undod:
            return
        try:
            undos.append(("ok", int(stack(watcher, answerer_path).Undo(timeout=300)[0])))
        except dbus.exceptions.DBusException as error:
            undos.append((error.get_dbus_name(), 0))
    first_undo = threading.Thread(target=undo)
    first_undo.start()
    count = 12 if QUICK else 50
    workers = [multiprocessing.Process(target=one, args=(index,)) for index in range(count)]
    for worker in workers:
        worker.start()
    moment.value = time.monotonic()
    time.sleep(0.2)
    # Killed, not told through its stdin: the workers forked after it hold
    # that pipe open, so it would hear nothing until they end.
    leaver.kill()
    leaver.wait()
    for worker in workers:
        worker.join()
    first_undo.join()
    undo()
    answerer.kill()
    handed = [int(line) for line in answerer.communicate()[0].split()]
    names = [outcomes.get() for _ in range(count * 8)]
    owner = ""
    try:
        properties = dbus.Interface(watcher.get_object("org.undod.Undo1", leaver_path), "org.freedesktop.DBus.Properties")
        for _ in range(100):
            owner = str(properties.Get("org.undod.Undo1.Stack", "Owner"))
            if not owner:
                break
            time.sleep(0.1)
    except dbus.exceptions.DBusException as error:
        owner = error.get_dbus_name()
    others = sorted(set(names) - {"stored", "org.undod.Undo1.Error.Busy", "org.freedesktop.DBus.Error.LimitsExceeded"})
    who = "undod" if on_undod else "floor"
    print(f"  {who}, {count * 8} connections: {names.count('stored')} stored, {names.count('org.undod.Undo1.Error.Busy')} "
          f"Busy (undod), {names.count('org.freedesktop.DBus.Error.LimitsExceeded')} LimitsExceeded (the bus)"
          + (f", other: {others}" if others else "")
          + f"; the app that quit: {'detached' if not owner else 'STILL OWNED by ' + owner}"
          + f"; the Apply answered during it: {answered(undos, handed)}", flush=True)


def answered(undos, handed):
    """What came of the two undos of the app answering during the flood:
    each group must be handed out once, the second undo the group below
    (unless the total limit dropped it)."""
    if not undos:
        return "-"
    (first, first_group), (second, second_group) = undos
    if len(set(handed)) != len(handed):
        return f"GROUP HANDED TWICE {handed}"
    if first == "ok" and second == "ok" and handed == [first_group, second_group]:
        return "applied once, the next undo the group below"
    if first == "ok" and second.endswith("NothingToUndo") and handed == [first_group]:
        # The flood's stored pushes passed max_total_bytes: the oldest groups went.
        return "applied once, the group below dropped by the total limit"
    if first == "ok":
        return f"NOT AS EXPECTED: {(undos, handed)!r}"
    return f"its answer lost ({first}), the stack waits ({second}), handed {len(handed)} time"


# The app that answers an Apply during the flood (`many_connections`).
ANSWERER = """
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
connection = dbus.bus.BusConnection(sys.argv[1])
class Client(dbus.service.Object):
    @dbus.service.method("org.undod.Undo1.Client", in_signature="otsaay", out_signature="",
                         async_callbacks=("ok", "err"))
    def Apply(self, path, group, direction, payloads, ok, err):
        print(int(group), flush=True)
        GLib.timeout_add(400, lambda: ok() and False)
Client(connection, "/org/undod/Undo1/Client")
manager = dbus.Interface(connection.get_object("org.undod.Undo1", "/org/undod/Undo1"), "org.undod.Undo1.Manager")
path = manager.Register("org.flood.answerer", dbus.Dictionary({}, signature="sv"))
stack = dbus.Interface(connection.get_object("org.undod.Undo1", path), "org.undod.Undo1.Stack")
for name in ("First", "Second"):
    stack.Push(name, dbus.ByteArray(b"u"), dbus.ByteArray(b"r"), dbus.Dictionary({}, signature="sv"))
print(path, flush=True)
GLib.MainLoop().run()
"""


targets = []
try:
    undod = Target("undod", undod_command)
    targets.append(undod)
    floor = Target("floor", floor_command) if floor_binary else None
    if floor:
        targets.append(floor)
    probes = {id(target): Probe(target) for target in targets}
    if os.environ.get("FLOOD_PERF"):
        perf = subprocess.Popen(["perf", "record", "-g", "-o", os.environ["FLOOD_PERF"], "-p", str(undod.service.pid)],
                                stderr=subprocess.DEVNULL)
        time.sleep(1)
    def when(into, at_moment):
        return f"{into:>6.2f}" + (f" {at_moment:>+9.3f}" if at_moment is not None else f" {'-':>9}")

    print(f"{'phase':<16} {'max ms':>8} {'at s':>6} {'at leave':>9} {'p99 ms':>8} {'over bus':>9} {'pushes':>7} {'peak RSS MiB':>13}"
          f" {'store MiB':>10}" + (f" {'floor max':>10} {'at s':>6} {'at leave':>9} {'floor p99':>10} {'over bus':>9}"
                                   if floor else ""))
    for key, name, phase in [("big", "big payloads", big_payloads), ("huge", "huge calls", huge_calls),
                             ("empty", "empty actions", empty_actions),
                             ("stacks", "10,000 stacks" if not QUICK else "2,000 stacks", many_stacks),
                             ("connections", "400 connections" if not QUICK else "96 connections", many_connections)]:
        if ONLY not in (None, key):
            continue
        # The floor first, then undod: the same flood, back to back.
        floor_slowest, floor_p99, floor_into, floor_at_moment = (probes[id(floor)].run(phase)[:4] if floor
                                                                 else [None] * 4)
        slowest, p99, into, at_moment, peak, count = probes[id(undod)].run(phase)
        print(f"{name:<16} {slowest:>8.1f} {when(into, at_moment)} {p99:>8.1f} {probes[id(undod)].over_bus:>9.1f}"
              f" {count:>7} {peak / 1024:>13.1f}"
              f" {undod.store_mib():>10.1f}" + (f" {floor_slowest:>10.1f} {when(floor_into, floor_at_moment)}"
                                                f" {floor_p99:>10.1f} {probes[id(floor)].over_bus:>9.1f}"
                                                if floor else ""), flush=True)
    if os.environ.get("FLOOD_PERF"):
        perf.send_signal(2)
        perf.wait()
    alive = undod.service.poll() is None
    print("undod still running" if alive else "undod DIED")
finally:
    for target in targets:
        target.stop()
    undod_log = os.path.join(scratch, "undod", "service.log")
    if os.environ.get("FLOOD_LOG") and os.path.exists(undod_log):
        print(open(undod_log).read()[-6000:])
    if targets and targets[0].service.returncode not in (None, 0, -15):
        print(open(undod_log).read()[-2000:])
    shutil.rmtree(scratch, ignore_errors=True)
