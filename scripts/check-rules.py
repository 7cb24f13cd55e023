#!/usr/bin/python3
"""Checks that every file and test Docs/RULES.md names exists.

Docs/RULES.md maps each rule of the protocol to the code that keeps it and
the test that proves it. This holds the map to the repository:

- A backticked path (it begins with one of the repository's top-level
  entries, `Sources/…`, `Tests/…`, `scripts/…`, or ends like a source file,
  `….swift`, `….py`, …) must name a file or directory that exists; a `*` in
  it must match at least one.
- A backticked `Module.Suite/function()` (Swift Testing's own name for a
  test) must name a `func function` declared directly in a type `Suite`
  (`struct`, `final class`, `enum`, or an `extension` of it) in a Swift
  file under `Tests/Module/`.
- A backticked `path/file.ext/function()` (C, C++ and Python tests) must
  name a function defined in that file.

Prints one line per missing thing and exits 1 if there is any; else one
line of summary and exit 0. Run from anywhere: paths are from the
repository's root (this script's parent directory).
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = "Docs/RULES.md"

SOURCE_SUFFIXES = (".swift", ".py", ".sh", ".c", ".h", ".cpp", ".js", ".json",
                   ".xml", ".md", ".service", ".desktop", ".supp", ".1", ".conf")
# A test's name ends in its parentheses, with its argument labels if any (`(release:)`).
SWIFT_TEST = re.compile(r"^([A-Za-z_]\w*)\.((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)/([A-Za-z_]\w*)\((?:[A-Za-z_]\w*:)*\)$")
FILE_TEST = re.compile(r"^(\S+\.\w+)/([A-Za-z_]\w*)\(\)$")
TYPE_DECL = re.compile(r"\b(struct|class|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)")
FUNC_DECL = re.compile(r"\bfunc\s+([A-Za-z_]\w*)")
NOT_A_TYPE = {"func", "var", "let", "subscript", "init", "deinit"}


def blank_out_swift(text):
    """The text with comments and string literals' contents turned to
    spaces (newlines kept), so that only the code's braces are left:
    nested block comments, escapes, `\\( … )` interpolations (code again,
    strings in it included), multi-line and raw strings."""
    out = list(text)
    n = len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def code(i, until_paren):
        """Reads code from i; returns the index after the `)` that closes
        an interpolation when until_paren, else the end."""
        depth = 0
        while i < n:
            c = text[i]
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                blank(i, j)
                i = j
            elif text.startswith("/*", i):
                j, level = i + 2, 1
                while j < n and level:
                    if text.startswith("/*", j):
                        level, j = level + 1, j + 2
                    elif text.startswith("*/", j):
                        level, j = level - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
            elif c == '"' or (c == "#" and re.match(r"#+\"", text[i:i + 20])):
                i = string(i)
            elif until_paren and c == "(":
                depth += 1
                i += 1
            elif until_paren and c == ")":
                if depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i

    def string(i):
        """Blanks the string literal at i; returns the index after it."""
        hashes = 0
        while text[i] == "#":
            hashes += 1
            i += 1
        multi = text.startswith('"""', i)
        opening = '"""' if multi else '"'
        closing = opening + "#" * hashes
        escape = "\\" + "#" * hashes
        j = i + len(opening)
        start = j
        while j < n:
            if text.startswith(escape + "(", j):
                blank(start, j)
                j = code(j + len(escape) + 1, True)
                start = j
            elif text.startswith(escape, j):
                j += len(escape) + 1
            elif text.startswith(closing, j):
                blank(start, j)
                return j + len(closing)
            elif text[j] == "\n" and not multi:
                break
            else:
                j += 1
        blank(start, j)
        return j

    code(0, False)
    return "".join(out)


def swift_tests(path):
    """{(type name, func name)} for every func declared directly in a type
    (or an extension of one) in the Swift file at path."""
    with open(path, encoding="utf-8") as f:
        text = blank_out_swift(f.read())
    opens = {}
    for m in TYPE_DECL.finditer(text):
        name = m.group(2).split(".")[-1]
        if name in NOT_A_TYPE:
            continue
        brace = text.find("{", m.end())
        if brace >= 0:
            opens[brace] = name
    funcs = {m.start(): m.group(1) for m in FUNC_DECL.finditer(text)}
    found, stack = set(), []
    for i, c in enumerate(text):
        if c == "{":
            stack.append(opens.get(i))
        elif c == "}":
            if stack:
                stack.pop()
        elif i in funcs and stack and stack[-1]:
            found.add((stack[-1], funcs[i]))
    return found


_swift_index = {}


def swift_index(module):
    """{(type, func)} over every Swift file under Tests/<module>/."""
    if module not in _swift_index:
        found = set()
        for path in glob.glob(os.path.join(ROOT, "Tests", module, "**", "*.swift"), recursive=True):
            found |= swift_tests(path)
        _swift_index[module] = found
    return _swift_index[module]


def defines(path, name):
    """Whether the C, C++ or Python file at path defines a function name."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".py"):
        pattern = r"^\s*(?:async\s+)?def\s+" + re.escape(name) + r"\s*\("
    else:
        pattern = r"^[\w \t\*&:<>,]*?\b(?:\w+::)?" + re.escape(name) + r"\s*\([^;]*$"
    return any(re.match(pattern, line) and not line.rstrip().endswith(";")
               for line in text.splitlines())


def is_path(token, top):
    if " " in token or token.startswith(("-", "$", "/")):
        return False
    first = token.split("/", 1)[0]
    if token in top or ("/" in token and first in top):
        return True
    return token.endswith(SOURCE_SUFFIXES) and "/" in token


def exists(token):
    if "*" in token:
        return bool(glob.glob(os.path.join(ROOT, token)))
    return os.path.exists(os.path.join(ROOT, token))


def main():
    try:
        with open(os.path.join(ROOT, RULES), encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        print(f"check-rules: cannot read {RULES}: {error.strerror}")
        return 1
    top = {entry for entry in os.listdir(ROOT) if not entry.startswith(".")}
    tokens = []
    for number, line in enumerate(text.splitlines(), 1):
        for token in re.findall(r"`([^`\n]+)`", line):
            tokens.append((number, token.strip()))
    files, tests, missing = set(), set(), []
    for number, token in tokens:
        swift = SWIFT_TEST.match(token)
        other = FILE_TEST.match(token)
        if swift:
            module, suite, function = swift.group(1), swift.group(2).split(".")[-1], swift.group(3)
            tests.add(token)
            if not os.path.isdir(os.path.join(ROOT, "Tests", module)):
                missing.append(f"{RULES}:{number}: {token}: no test module Tests/{module}")
            elif (suite, function) not in swift_index(module):
                suites = {s for s, _ in swift_index(module)}
                why = f"no func {function} in {suite}" if suite in suites else f"no type {suite}"
                missing.append(f"{RULES}:{number}: {token}: {why} under Tests/{module}")
        elif other:
            path, function = other.group(1), other.group(2)
            tests.add(token)
            if not os.path.isfile(os.path.join(ROOT, path)):
                missing.append(f"{RULES}:{number}: {token}: no file {path}")
            elif not defines(os.path.join(ROOT, path), function):
                missing.append(f"{RULES}:{number}: {token}: no function {function} in {path}")
        elif "/" in token and re.search(r"\w\([^()]*\)$", token):
            missing.append(f"{RULES}:{number}: {token}: not a test name this check can read")
        elif is_path(token, top):
            files.add(token)
            if not exists(token):
                missing.append(f"{RULES}:{number}: {token}: no such file")
    for line in missing:
        print(line)
    if missing:
        print(f"check-rules: {len(missing)} of the files and tests named by {RULES} do not exist")
        return 1
    print(f"check-rules: {len(files)} files and {len(tests)} tests named by {RULES} all exist")
    return 0


if __name__ == "__main__":
    sys.exit(main())
