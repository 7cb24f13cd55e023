#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemClock

/// Rows 9–11: the shell's undo (undod-files) as a person meets it, in a
/// real bash with `undoctl shell-init bash` loaded, on this bench's bus
/// with its undod and the agent: what the functions add to a command that
/// finishes at once; an `rm -r` of a big tree and its undo against an
/// `mv` of the same tree; a big `cp` and its undo. Timed inside bash
/// (`$EPOCHREALTIME`), each side interleaved with the other.
struct ShellRows {
    /// The run this measures in.
    let bench: Bench

    /// Row 9: the functions' added time, `mv a b`.
    static func row9() -> Row {
        Row(number: 9, key: "shell_mv_added", title: "mv a b through the functions − plain mv", unit: "ms", digits: 2,
            target: Target(bound: .atMost, limit: 5, digits: 0))
    }

    /// Row 10: `rm -r` of a tree (100,000 files) ÷ `mv` of it, each
    /// through the functions; its undo is printed under it.
    static func row10() -> Row {
        Row(number: 10, key: "shell_rm_tree", title: "rm -r of 100,000 files ÷ mv of the tree", unit: "×", digits: 2,
            target: Target(bound: .atMost, limit: 1.5, digits: 1))
    }

    /// Row 11: a 1 GiB `cp` through the functions ÷ the plain `cp`; its
    /// undo is printed under it. Reported, no target.
    static func row11() -> Row {
        Row(number: 11, key: "shell_cp_big", title: "cp of 1 GiB through the functions ÷ plain cp", unit: "×", digits: 2,
            target: nil)
    }

    /// Row 9: `mv a b` then `mv b a`, plain (`command mv`) and through the
    /// functions, in turns; the medians' difference.
    func measureAddedTime(_ row: inout Row) throws(BenchError) {
        let count = bench.scale.shellCommands
        let times = try run("row9", prepare: { folder throws(BenchError) in try Self.makeFile(folder + "/a", bytes: 0) }, """
            for i in 1 2 3; do mv a b; mv b a; done
            for i in $(seq 20); do
              s=$EPOCHREALTIME; eval "$(undoctl shell-init bash)"; e=$EPOCHREALTIME; echo "load $s $e"
            done
            for i in $(seq \(count)); do
              s=$EPOCHREALTIME; command mv a b; e=$EPOCHREALTIME; echo "plain $s $e"; command mv b a
              s=$EPOCHREALTIME; mv a b; e=$EPOCHREALTIME; echo "undoable $s $e"; mv b a
            done
            """)
        let plain = Summary(times["plain"] ?? [])
        let undoable = Summary(times["undoable"] ?? [])
        let load = Summary(times["load"] ?? [])
        row.summary = Summary(single: undoable.median - plain.median)
        row.detail = "mv a b: \(Report.format(undoable.median, digits: 2)) ms through the functions (recorded, one group "
            + "each), \(Report.format(plain.median, digits: 2)) ms plain; medians of \(count) each, ratio "
            + Report.format(undoable.median / plain.median, digits: 2) + "; the functions load (eval \"$(undoctl "
            + "shell-init bash)\") in \(Report.format(load.median, digits: 2)) ms (goal under 10)"
        row.values = [("undoable_ms", undoable.median), ("plain_ms", plain.median),
                      ("ratio", undoable.median / plain.median), ("load_ms", load.median)]
    }

    /// Row 10: a tree of `treeFiles` files moved aside and back, then
    /// removed and the removal undone, through the functions, three rounds.
    func measureTree(_ row: inout Row) throws(BenchError) {
        let files = bench.scale.treeFiles
        let times = try run("row10", prepare: { folder throws(BenchError) in try Self.makeTree(folder + "/tree", files: files) }, """
            for i in 1 2 3; do
              s=$EPOCHREALTIME; mv tree moved; e=$EPOCHREALTIME; echo "mv $s $e"; mv moved tree
              s=$EPOCHREALTIME; command mv tree moved; e=$EPOCHREALTIME; echo "plainmv $s $e"; command mv moved tree
              s=$EPOCHREALTIME; rm -r tree; e=$EPOCHREALTIME; echo "rm $s $e"
              s=$EPOCHREALTIME; undoctl undo >/dev/null; e=$EPOCHREALTIME; echo "undo $s $e"
              test -d tree || exit 1
            done
            """)
        let move = Summary(times["mv"] ?? [])
        let remove = Summary(times["rm"] ?? [])
        let undo = Summary(times["undo"] ?? [])
        let plain = Summary(times["plainmv"] ?? [])
        row.summary = Summary(single: remove.median / move.median)
        row.detail = "\(files) files: rm -r \(Report.format(remove.median, digits: 1)) ms, its undo (undoctl undo) "
            + "\(Report.format(undo.median, digits: 1)) ms = \(Report.format(undo.median / move.median, digits: 2))× the mv, "
            + "mv \(Report.format(move.median, digits: 1)) ms through the functions, "
            + "\(Report.format(plain.median, digits: 1)) ms plain; medians of 3"
        row.values = [("rm_ms", remove.median), ("undo_ms", undo.median), ("mv_ms", move.median),
                      ("plain_mv_ms", plain.median), ("undo_ratio", undo.median / move.median)]
    }

    /// Row 11: a file of `copyBytes` copied plain and through the
    /// functions, and the copy's removal undone, two rounds.
    func measureCopy(_ row: inout Row) throws(BenchError) {
        let bytes = bench.scale.copyBytes
        let times = try run("row11", prepare: { folder throws(BenchError) in try Self.makeFile(folder + "/big", bytes: bytes) }, """
            for i in 1 2; do
              s=$EPOCHREALTIME; command cp big plain; e=$EPOCHREALTIME; echo "plaincp $s $e"; command rm plain
              s=$EPOCHREALTIME; cp big copy; e=$EPOCHREALTIME; echo "cp $s $e"
              s=$EPOCHREALTIME; undoctl undo >/dev/null; e=$EPOCHREALTIME; echo "undo $s $e"
              test -e copy && exit 1
              command rm -rf "$HOME/.local/share/Trash"
            done
            """)
        let plain = Summary(times["plaincp"] ?? [])
        let copy = Summary(times["cp"] ?? [])
        let undo = Summary(times["undo"] ?? [])
        row.summary = Summary(single: copy.median / plain.median)
        row.detail = "\(bytes >> 20) MiB: cp \(Report.format(copy.median, digits: 0)) ms through the functions, "
            + "\(Report.format(plain.median, digits: 0)) ms plain; its undo \(Report.format(undo.median, digits: 1)) ms; "
            + "medians of 2"
        row.values = [("cp_ms", copy.median), ("plain_cp_ms", plain.median), ("undo_ms", undo.median)]
    }

    /// Runs `script` in bash with the integration loaded, in a folder of
    /// its own that `prepare` fills first, with an undod and the agent on
    /// the bench's bus and a home of its own: the durations (ms) of each
    /// line it printed as `LABEL START END`.
    private func run(_ label: String, prepare: (String) throws(BenchError) -> Void,
                     _ script: String) throws(BenchError) -> [String: [Double]] {
        let folder = try bench.scratch.directory(label)
        let home = try bench.scratch.directory(label + "-home")
        try prepare(folder)
        let undod = try bench.startUndod(label + "-undod", config: GroupRows.keepEverything(persist: true),
                                         stateDirectory: try bench.scratch.directory(label + "-state"))
        defer { undod.kill() }
        // Absolute: bash changes its directory, and PATH must still find them.
        let binaries = URL(fileURLWithPath: bench.options.shellTools
            ?? URL(fileURLWithPath: bench.options.undodPath).deletingLastPathComponent().path).standardizedFileURL.path
        let environment = ["HOME": home, "XDG_DATA_HOME": "", "PATH": binaries + ":/usr/bin:/bin",
                           "DBUS_SESSION_BUS_ADDRESS": bench.bus.address]
        let agent = try UndodInstance(filesAgent: binaries + "/undod-files", address: bench.bus.address,
                                      environment: environment, watcher: bench.watcher, scratch: bench.scratch)
        defer { agent.kill() }
        let output = try bench.scratch.logFile(label + ".out")
        let errors = try bench.scratch.logFile(label + ".err")
        let whole = "eval \"$(undoctl shell-init bash)\" && cd '\(folder)' && {\n\(script)\n}"
        let bash = try ChildProcess(path: "/usr/bin/env",
                                    arguments: ["-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                        + ["/bin/bash", "--norc", "--noprofile", "-c", whole],
                                    name: "bash (\(label))", stdout: output.fd, stderr: errors.fd)
        close(output.fd)
        close(errors.fd)
        guard bash.wait(milliseconds: bench.remainingMilliseconds()) else {
            bash.kill()
            throw BenchError("bash (\(label)) did not finish within the run's budget.")
        }
        guard bash.exitCode == 0 else {
            throw BenchError("bash (\(label)) failed (\(bash.exitCode ?? -1)): \(Scratch.tail(of: errors.path))")
        }
        var times: [String: [Double]] = [:]
        for line in (try? String(contentsOfFile: output.path, encoding: .utf8))?.split(separator: "\n") ?? [] {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let start = Double(fields[1]), let end = Double(fields[2]) else { continue }
            times[String(fields[0]), default: []].append((end - start) * 1_000)
        }
        guard !times.isEmpty else { throw BenchError("bash (\(label)) timed nothing: \(Scratch.tail(of: errors.path))") }
        return times
    }

    /// A file of `bytes` bytes (a pattern, not a hole) at `path`.
    static func makeFile(_ path: String, bytes: Int) throws(BenchError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchError("Cannot make \(path): \(String(cString: strerror(errno))).") }
        defer { close(fd) }
        let chunk = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var left = bytes
        while left > 0 {
            let count = min(left, chunk.count)
            guard chunk.withUnsafeBytes({ write(fd, $0.baseAddress, count) }) == count else {
                throw BenchError("Cannot write \(path): \(String(cString: strerror(errno))).")
            }
            left -= count
        }
    }

    /// A tree of `files` small files at `path`, 1,000 to a folder.
    static func makeTree(_ path: String, files: Int) throws(BenchError) {
        guard mkdir(path, 0o755) == 0 else { throw BenchError("Cannot make \(path).") }
        for index in 0..<files {
            let folder = "\(path)/d\(index / 1_000)"
            if index % 1_000 == 0 { guard mkdir(folder, 0o755) == 0 else { throw BenchError("Cannot make \(folder).") } }
            let fd = open("\(folder)/f\(index)", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw BenchError("Cannot make a file in \(folder).") }
            _ = write(fd, "x", 1)
            close(fd)
        }
    }
}
