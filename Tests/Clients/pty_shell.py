#!/usr/bin/python3
"""An interactive shell under a pseudo-terminal, typed into as a person
would, for undod's tests of the shell's undo.

Usage: /usr/bin/python3 pty_shell.py bash|zsh|fish DIRECTORY

Starts the shell interactive (no start-up files: bash --norc --noprofile,
zsh -f, fish --no-config) on a new pty in DIRECTORY, with TERM=dumb, and
prints {"event":"ready","pid":PID} once it answers. Then, for each JSON
line on stdin, {"cmd":"type","line":TEXT,"timeout":SECONDS?}, it types
TEXT and a newline, followed by a line that prints a marker with the
command's exit status, and answers {"event":"done","status":N,"output":
TEXT} with what the terminal showed meanwhile (the echo of what was typed
included). {"event":"error","message":...} when the shell does not answer
in time or ends.
"""
import json
import os
import pty
import re
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_lines import emit  # noqa: E402

kind, directory = sys.argv[1], sys.argv[2]
argv = {"bash": ["bash", "--norc", "--noprofile", "-i"], "zsh": ["zsh", "-f", "-i"],
        "fish": ["fish", "--no-config", "-i"]}[kind]
status_variable = "$status" if kind == "fish" else "$?"
marker = re.compile(rb"__undod_done_(\d+)__")

pid, fd = pty.fork()
if pid == 0:
    os.chdir(directory)
    os.environ["TERM"] = "dumb"
    os.execvp(argv[0], argv)


def read_until(pattern, seconds):
    """What the terminal shows until `pattern` appears (or None in time)."""
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return None
        if not chunk:
            return None
        seen += chunk
        found = pattern.search(seen)
        if found:
            return seen, found
    return None


def type_line(text, seconds):
    # The marker's digits come only from the shell's own printing: the echo
    # of what is typed shows `%d`.
    os.write(fd, (text + "\n" + "printf '\\n__undod_done_%d__\\n' " + status_variable + "\n").encode())
    return read_until(marker, seconds)


first = type_line("true", 20)
if first is None:
    emit({"event": "error", "message": "the %s under the pty did not answer" % kind})
    sys.exit(1)
emit({"event": "ready", "pid": pid})
for raw in sys.stdin:
    command = json.loads(raw)
    result = type_line(command["line"], command.get("timeout", 30))
    if result is None:
        emit({"event": "error", "message": "no answer to %r" % command["line"]})
        sys.exit(1)
    seen, found = result
    emit({"event": "done", "status": int(found.group(1)), "output": seen.decode("utf-8", "replace")})
os.kill(pid, 9)
