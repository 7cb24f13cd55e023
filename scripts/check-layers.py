#!/usr/bin/python3
"""Checks the house's layers, in two ways:

1. Package.swift's graph: each library target stands only on targets of
   lower layers (LAYERS, lowest first), so DBus and X11, side by side on
   the loop, cannot reach each other, and the service (Caretaker) stands on
   the model, the store, the contract's types and the loop and on nothing
   of the bus, the desktop or the config, not even through another target
   (KEPT_APART).
2. The imports: every Swift file imports only the targets its own target
   names as dependencies (plus the toolchain's modules). SwiftPM itself
   would let a file import a dependency's dependency.
3. Nothing of undo in the bus: DBus's code (its comments and strings
   aside: they may say why, naming undod) has no name of undo's
   (UNDO_WORDS), so that what undo needs of a call is asked of DBus in
   D-Bus's own terms (byte arrays, preparations), never built into it.
4. The rooms' size: no type under Sources/ is over MAX_LINES lines, and
   no Swift file either. A type's lines are those of its primary file
   (Type.swift) and of every extension file named after it (Type+*.swift)
   in the same target, wherever they lie in the target's folders:
   spreading a type over more files does not make it smaller. A type over
   the limit holds more than one idea; split one out into a type of its
   own, with its state (as HistoryDatabase's journal writer is).

Prints each violation and exits 1 when there is one."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLCHAIN = {"Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing", "XCTest"}
TARGET = re.compile(r'\.(?:target|executableTarget|testTarget)\(\s*name: "([^"]+)"'
                    r'(?:,\s*dependencies: \[([^\]]*)\])?(?:,\s*path: "([^"]+)")?')
# The library targets, lowest layer first; a target may depend only on
# targets of lower layers. Executables, test support and tests stand on top.
LAYERS = [
    {"CDBus", "CSQLite", "CXCB", "CXKBCommon", "CShim", "CBench", "Locking"},
    {"CXCBShim", "SafeText", "JSONText", "SystemCalls", "SystemClock", "ProcessEnvironment"},
    {"Loop", "Logging", "UndoCore", "Rig", "FileTrash"},
    {"DBus", "X11", "SwayIPC", "UndoStore", "FileUndo"},
    {"Undo1"},
    {"Undo1Wire"},
    {"Caretaker", "UndoKit"},
    {"UndoDaemon"},
]
# Dependencies that must never be reached, directly or through another
# target, though the layers would allow them: the service stands on the
# contract's types (Undo1, which has no bus) but never on their codecs
# (Undo1Wire), the bus, the desktop or the daemon itself — so "the service
# has no bus" holds at link time.
KEPT_APART = {
    "Caretaker": {"DBus", "Undo1Wire", "X11", "SwayIPC", "UndoDaemon", "CDBus", "CXCB"},
    "Undo1": {"DBus", "CDBus"},
    "UndoCore": {"Loop", "DBus", "X11", "UndoStore"},
    "Loop": {"DBus", "X11", "SwayIPC", "Logging", "ProcessEnvironment"},
}
IMPORT = re.compile(r'(?m)^(?:@\w+ )?(?:(?:public|package|internal|private|fileprivate) )?import (\w+)')


def is_top(package, name):
    """Executables and test support stand on top of every layer."""
    return re.search(r'\.executableTarget\(\s*name: "' + re.escape(name) + '"', package) is not None \
        or name in {"BusHarness", "CHarness"}


# Words of undo that name nothing in D-Bus: none may be in DBus's code.
UNDO_WORDS = re.compile(r'(?i)undo|redo|payload|action|push|stack(?!trace)')
COMMENT_OR_STRING = re.compile(r'//[^\n]*|"(?:\\.|[^"\\\n])*"')


def undo_in_bus():
    """Each name of undo's in DBus's code, as a problem line."""
    found = []
    for file in sorted(glob.glob(os.path.join(ROOT, "Sources", "DBus", "**", "*.swift"), recursive=True)):
        for number, line in enumerate(open(file), 1):
            code = COMMENT_OR_STRING.sub("", line)
            for word in re.findall(r'\w+', code):
                if UNDO_WORDS.search(word):
                    found.append(f"{os.path.relpath(file, ROOT)}:{number}: {word} is undo's word, "
                                 "not D-Bus's: ask for it in D-Bus's terms")
    return found


# The most lines a Swift file under Sources/ may have, and a type over its
# files (Type.swift + Type+*.swift in one target).
MAX_LINES = 400


def type_lines(root):
    """Every type's lines under Sources/, by (target, type): its file
    Type.swift and its extensions' Type+*.swift in the target's folder."""
    lines = {}
    for file in sorted(glob.glob(os.path.join(root, "Sources", "**", "*.swift"), recursive=True)):
        target = os.path.relpath(file, os.path.join(root, "Sources")).split(os.sep)[0]
        name = os.path.basename(file)[:-len(".swift")].split("+")[0]
        lines[(target, name)] = lines.get((target, name), 0) + sum(1 for _ in open(file))
    return lines


def main():
    package = open(os.path.join(ROOT, "Package.swift")).read()
    problems = []
    layer = {target: index for index, names in enumerate(LAYERS) for target in names}
    targets = TARGET.findall(package)
    for name, _, _ in targets:
        if not name.endswith("Tests") and name not in layer and not is_top(package, name):
            problems.append(f"Package.swift: library target {name} has no layer in check-layers.py")
    direct = {name: set(re.findall(r'"([^"]+)"', dependencies)) for name, dependencies, _ in targets}

    def reached(name, seen=None):
        """Every target `name` stands on, directly or not."""
        seen = set() if seen is None else seen
        for dependency in direct.get(name, set()) - seen:
            seen.add(dependency)
            reached(dependency, seen)
        return seen

    for name, dependencies, path in targets:
        declared = direct[name]
        for dependency in sorted(declared):
            if name in layer and layer.get(dependency, len(LAYERS)) >= layer[name]:
                problems.append(f"Package.swift: {name} depends on {dependency}, which is not in a layer below it")
        for dependency in sorted(reached(name) & KEPT_APART.get(name, set())):
            how = "" if dependency in declared else " (through another target)"
            problems.append(f"Package.swift: {name} must not depend on {dependency}{how}")
        allowed = declared | TOOLCHAIN | {name}
        allowed |= {d.replace("-", "_") for d in allowed}
        folder = path or os.path.join("Tests" if name.endswith("Tests") else "Sources", name)
        for file in sorted(glob.glob(os.path.join(ROOT, folder, "**", "*.swift"), recursive=True)):
            for module in IMPORT.findall(open(file).read()):
                if module not in allowed:
                    problems.append(f"{os.path.relpath(file, ROOT)}: imports {module}, "
                                    f"which target {name} does not name as a dependency")
    for file in sorted(glob.glob(os.path.join(ROOT, "Sources", "**", "*.swift"), recursive=True)):
        lines = sum(1 for _ in open(file))
        if lines > MAX_LINES:
            problems.append(f"{os.path.relpath(file, ROOT)}: {lines} lines, over {MAX_LINES}: split it")
    for (target, name), lines in sorted(type_lines(ROOT).items()):
        if lines > MAX_LINES:
            problems.append(f"{name}: {lines} lines over its files ({name}.swift + {name}+*.swift in "
                            f"Sources/{target}), the most a type may have is {MAX_LINES}; "
                            f"split an idea out into a type of its own")
    problems += undo_in_bus()
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


main()
