"""JSON lines on stdout, shared by the scripted test clients: the test that
drives a client reads one object per line."""
import json
import os
import sys


def emit(obj):
    """Writes `obj` as one JSON line and flushes; a gone reader ends the client."""
    try:
        sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        os._exit(0)
