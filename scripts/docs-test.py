#!/usr/bin/python3
"""Runs every whole program of the app developers' guides as written (part
of `make test`), so the docs cannot drift from what works.

Usage: docs-test.py BIN_DIR LIBUNDOD_BUILD [DOC ...]

A whole program is a code block whose first line says so: `#!/usr/bin/python3`
(run with /usr/bin/python3), a C comment naming its file and a `Build:`
command (compiled with that command, the build tree's pkg-config files
standing in for the installed ones), or `import UndoKit` (Swift: built as an
executable target of a package that depends on this checkout by path, as
UNDOKIT.md's Package.swift shows, in .build/docs-programs). The ```text block right after it, if
any, is what it must print. They run one after another, each twice, on one
private bus that starts undod (BIN_DIR/undod, a state directory of the
run's own) by D-Bus activation, as an installed undod is started — as a
reader trying them in turn would (so that one's stack is never another's).
A block whose first line names an example (`# from Examples/…`, or
`/* from Examples/… */`) is an excerpt of it, which the suites run: every
line of its code (comments and spacing aside) must still be in that file.
Swift blocks that are not whole programs are checked too: the manifest lines
(`// Package.swift …`) are the ones the programs' package is built with; a
declaration (`public …`, `@MainActor public …`) must be how UndoKit's
sources declare it; any other Swift block is built inside a function, beside
FRAGMENT_NAMES (the names the guide's fragments take as given). Any other
code block is a failure: nothing would check it (```text is for diagrams and
output).
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

bin_dir, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
docs = sys.argv[3:] or ["Docs/ADOPTING.md", "Docs/UNDOKIT.md"]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\n(?:\nIt prints:\n\n```text\n(.*?)^```\n)?", re.M | re.S)


def programs(path):
    """Every code block of `path`: (line, language, code, expected output or None, runnable)."""
    text = open(path).read()
    for match in BLOCK.finditer(text):
        language, code, expected = match.group(1), match.group(2), match.group(3)
        line = text.count("\n", 0, match.start()) + 1
        runnable = (language == "python" and code.startswith("#!/usr/bin/python3\n")) or \
                   (language == "c" and re.match(r"/\* [\w.-]+\.c: ", code) and "Build: " in code) or \
                   (language == "swift" and code.startswith("import UndoKit\n"))
        if language != "text":
            yield line, language, code, expected, bool(runnable)


def private_bus(work):
    """A bus that starts this build's undod by activation; returns (bus process, address)."""
    services = os.path.join(work, "services")
    os.makedirs(services)
    with open(os.path.join(services, "org.undod.Undo1.service"), "w") as file:
        file.write(f"[D-BUS Service]\nName=org.undod.Undo1\n"
                   f"Exec={bin_dir}/undod --state-dir {work}/state\n")
    config = os.path.join(work, "bus.conf")
    with open(config, "w") as file:
        file.write(f"""<busconfig><type>session</type><listen>unix:dir={work}</listen><auth>EXTERNAL</auth>
<servicedir>{services}</servicedir>
<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
</busconfig>""")
    bus = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return bus, bus.stdout.readline().strip()


REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT_SCRATCH = os.path.join(REPOSITORY, ".build", "docs-programs")


FRAGMENT_NAMES = """import UndoKit

// What UNDOKIT.md's fragments take as given: an app's own names.
let client: UndoClient = { fatalError("a fragment is built, not run") }()
let stack: UndoStackClient = { fatalError("a fragment is built, not run") }()
let action = UndoAction(undo: [1], redo: [2])
let text = "the document"
let xid: UInt64 = 0x3a00007
func sha256(of text: String) -> String { text }
@MainActor final class MenuItem { var title = ""; var isEnabled = false }
@MainActor let undoItem = MenuItem(), redoItem = MenuItem()
@MainActor let manager: UndoManager = { fatalError("a fragment is built, not run") }()
@MainActor final class Editor {
    var stack: UndoStackClient?
    var undoAvailable = false
    let options = StackOptions(title: "Notes")
    func apply(_ request: ApplyRequest) async throws {}
}
@MainActor let editor = Editor()
"""


def manifest(fragment, targets):
    """Package.swift of the docs' programs: `fragment`'s lines (UNDOKIT.md's
    "Package.swift of your app"), its target line once for each of `targets`."""
    lines = [line for line in fragment.splitlines() if line.strip()]
    dependency = next(line for line in lines if line.startswith("dependencies:"))
    target = next(line for line in lines if ".executableTarget(" in line)
    return ("// swift-tools-version: 6.0\nimport PackageDescription\n"
            f'let package = Package(name: "DocPrograms",\n{dependency}\ntargets: [\n'
            + "\n".join(target.replace('"MyApp"', f'"{name}"') for name in targets) + "\n])\n")


def build_swift(swift_programs, swift_fragments, manifest_fragment, work):
    """Builds every Swift program (key, code) as target P<key>, and every
    fragment inside a function of target Fragments, of one package whose
    manifest is the guide's; returns {key: executable} and the build's
    failure, if any."""
    package = os.path.join(work, "app")
    # The guide's manifest names the checkout "../undod": so is it here.
    os.symlink(REPOSITORY, os.path.join(work, "undod"))
    names = [f"P{line}" for line, _ in swift_programs] + ["Fragments"]
    for line, code in swift_programs:
        os.makedirs(os.path.join(package, "Sources", f"P{line}"))
        with open(os.path.join(package, "Sources", f"P{line}", "main.swift"), "w") as file:
            file.write(code)
    os.makedirs(os.path.join(package, "Sources", "Fragments"))
    with open(os.path.join(package, "Sources", "Fragments", "Given.swift"), "w") as file:
        file.write(FRAGMENT_NAMES)
    with open(os.path.join(package, "Sources", "Fragments", "main.swift"), "w") as file:
        file.write("import UndoKit\n" + "".join(f"\n@MainActor func fragment{key}() async {{\n{code}}}\n"
                                            for key, code in swift_fragments))
    with open(os.path.join(package, "Package.swift"), "w") as file:
        file.write(manifest(manifest_fragment, names))
    built = subprocess.run(["swift", "build", "--package-path", package, "--scratch-path", SWIFT_SCRATCH],
                           capture_output=True, text=True, timeout=1200)
    binaries = os.path.join(SWIFT_SCRATCH, "debug")
    return {line: os.path.join(binaries, f"P{line}") for line, _ in swift_programs}, \
        None if built.returncode == 0 else built.stdout[-4000:] + built.stderr[-2000:]


def declarations(directory):
    """Every declaration line of the Swift sources under `directory`, an
    attribute line joined to the line it heads, spacing normalized."""
    found = []
    for path in glob.glob(os.path.join(directory, "*.swift")):
        pending = ""
        for line in code_lines(open(path).read()):
            if re.fullmatch(r"@\w+", line):
                pending += line + " "
                continue
            found.append(pending + line)
            pending = ""
    return found


def undeclared(code):
    """The lines of a declaration block that UndoKit's sources do not declare
    (a line matches a declaration it begins, so conformances may be left out
    at the end)."""
    known = declarations(os.path.join(REPOSITORY, "Sources", "UndoKit"))
    return [line for line in code_lines(code) if line != "}"
            and not any(found.rstrip(" {").startswith(line.rstrip(" {")) for found in known)]


def run(line, language, code, work, environment, swift_binaries=None):
    """Builds and runs one program (a Python one saved as a file of its own,
    as a reader would: undod tells programs apart by their script); returns
    (exit status, what it printed)."""
    if language == "swift":
        command, given = [swift_binaries[line]], None
    elif language == "python":
        script = os.path.join(work, f"program-{line}.py")
        with open(script, "w") as file:
            file.write(code)
        command, given = ["/usr/bin/python3", script], None
    else:
        name = re.match(r"/\* ([\w.-]+\.c): ", code).group(1)
        with open(os.path.join(work, name), "w") as file:
            file.write(code)
        build_command = re.search(r"Build: (.*?)\s*(\*/)?$", code, re.M).group(1).strip()
        built = subprocess.run(["sh", "-c", build_command], cwd=work, env=environment,
                               capture_output=True, text=True, timeout=120)
        if built.returncode != 0:
            return built.returncode, f"`{build_command}` failed:\n{built.stderr}"
        output = shlex.split(build_command)[shlex.split(build_command).index("-o") + 1]
        command, given = [os.path.join(work, output)], None
    done = subprocess.run(command, input=given, cwd=work, env=environment, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, done.stdout + (f"(stderr) {done.stderr}" if done.stderr else "")


def code_lines(text):
    """`text`'s lines of code, comments and spacing aside."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    lines = (re.sub(r"\s+#.*$|^\s*#(?!include).*$|\s*//.*$", "", line) for line in text.splitlines())
    return [" ".join(line.split()) for line in lines if line.strip()]


EXAMPLES = {os.path.relpath(path, REPOSITORY): " \n ".join(code_lines(open(path, errors="replace").read())) + " \n "
            for path in glob.glob(os.path.join(REPOSITORY, "Examples", "**", "*"), recursive=True)
            if os.path.isfile(path)}


def excerpt_of(code):
    """The example `code` says it is taken from, or None; and the lines of
    its code that the example no longer holds."""
    named = re.match(r"(?:#|/\*) from (Examples/\S+?)(?: \*/)?\n", code)
    if not named:
        return None, []
    text = EXAMPLES.get(named.group(1), "")
    return named.group(1), [line for line in code_lines(code) if line not in text]


failures, ran, fragments, excerpts, checked = [], 0, [], [], []
with tempfile.TemporaryDirectory(prefix="undod-docs-") as work:
    environment = dict(os.environ, GI_TYPELIB_PATH=f"{build}/undod", LD_LIBRARY_PATH=f"{build}/undod",
                       PKG_CONFIG_PATH=f"{build}/meson-uninstalled", HOME=work, XDG_STATE_HOME=f"{work}/state-home")
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    everything = [(doc, *block) for doc in docs for block in programs(doc)]
    # Swift programs and fragments by their place in `everything` (two docs may have one at the same line).
    swift = [(index, code) for index, (_, _, language, code, _, runnable) in enumerate(everything)
             if runnable and language == "swift"]
    manifests = [code for _, _, language, code, _, _ in everything
                 if language == "swift" and code.startswith("// Package.swift")]
    swift_fragments = [(index, code) for index, (_, _, language, code, _, runnable) in enumerate(everything)
                       if language == "swift" and not runnable and not code.startswith("// Package.swift")
                       and not re.match(r"(@\w+ )?public ", code)]
    if len(manifests) != 1:
        failures.append(f"the guides show {len(manifests)} Package.swift blocks; the programs need one")
        swift_binaries, swift_failure = {}, "no manifest"
    else:
        swift_binaries, swift_failure = build_swift(swift, swift_fragments, manifests[0], work)
    if swift_failure:
        failures.append(f"the Swift programs and fragments did not build:\n{swift_failure}")
    bus, environment["DBUS_SESSION_BUS_ADDRESS"] = private_bus(work)
    try:
        for index, (doc, line, language, code, expected, runnable) in enumerate(everything):
            if language == "swift" and not runnable:
                if code.startswith("// Package.swift"):
                    checked.append(f"{doc}:{line} (the programs' manifest)")
                elif re.match(r"(@\w+ )?public ", code):
                    missing = undeclared(code)
                    if missing:
                        failures.append(f"{doc}:{line}: UndoKit declares none of {missing}")
                    checked.append(f"{doc}:{line} (declared so in Sources/UndoKit)")
                else:
                    checked.append(f"{doc}:{line} (built as fragment{index})")
                continue
            if not runnable:
                example, missing = excerpt_of(code)
                if example is None:
                    fragments.append(f"{doc}:{line} ({language or 'no language'})")
                    failures.append(f"{doc}:{line}: a code block that is no whole program, excerpt or Swift "
                                    "part, so nothing checks it (a diagram or an output is ```text)")
                elif missing:
                    failures.append(f"{doc}:{line}: an excerpt of {example} that it no longer holds: {missing}")
                else:
                    excerpts.append(f"{doc}:{line} ({example})")
                continue
            if language == "swift" and swift_failure:
                continue
            ran += 1
            for attempt in ("", " (run again)"):
                status, printed = run(index if language == "swift" else line, language, code, work, environment,
                                      swift_binaries)
                if status != 0 or (expected is not None and printed != expected):
                    failures.append(f"{doc}:{line}{attempt}: exit {status}; printed:\n{printed}"
                                    + (f"expected:\n{expected}" if expected is not None else ""))
    finally:
        bus.terminate()
        bus.wait()
        subprocess.run(["pkill", "-f", "--", f"--state-dir {work}/state"], check=False)
for failure in failures:
    print(f"docs test: FAILED: {failure}", file=sys.stderr)
print(f"docs test: {ran} whole programs of {', '.join(docs)} run as written, each twice on one undod, "
      f"{len(failures)} failed; {len(excerpts)} excerpts still in the examples the suites run "
      f"({', '.join(excerpts) or 'none'}); {len(checked)} Swift blocks checked as parts "
      f"({', '.join(checked) or 'none'}); {len(fragments)} fragments not run ({', '.join(fragments) or 'none'})")
sys.exit(1 if failures else 0)
