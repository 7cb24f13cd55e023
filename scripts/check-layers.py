#!/usr/bin/python3
"""Checks that every Swift file imports only the targets its own target
names as dependencies in Package.swift (plus the toolchain's modules), so
each module stands on those beneath it and nothing reaches past its layer.
SwiftPM itself would let a file import a dependency's dependency.
Prints each violation and exits 1 when there is one."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLCHAIN = {"Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing", "XCTest"}
TARGET = re.compile(r'\.(?:target|executableTarget|testTarget)\(\s*name: "([^"]+)"'
                    r'(?:,\s*dependencies: \[([^\]]*)\])?(?:,\s*path: "([^"]+)")?')
IMPORT = re.compile(r'(?m)^(?:@\w+ )?(?:(?:public|package|internal|private|fileprivate) )?import (\w+)')


def main():
    package = open(os.path.join(ROOT, "Package.swift")).read()
    problems = []
    for name, dependencies, path in TARGET.findall(package):
        allowed = set(re.findall(r'"([^"]+)"', dependencies)) | TOOLCHAIN | {name}
        allowed |= {d.replace("-", "_") for d in allowed}
        folder = path or os.path.join("Tests" if name.endswith("Tests") else "Sources", name)
        for file in sorted(glob.glob(os.path.join(ROOT, folder, "**", "*.swift"), recursive=True)):
            for module in IMPORT.findall(open(file).read()):
                if module not in allowed:
                    problems.append(f"{os.path.relpath(file, ROOT)}: imports {module}, "
                                    f"which target {name} does not name as a dependency")
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


main()
