import BusHarness
import DBus
import Foundation
import Rig

/// Calls undod as an attacker would, generated from the introspection of
/// every interface: right and wrong signatures, wrong types in variants,
/// boundary sizes and strings, odd paths, in random order from several
/// connections whose applications answer `Apply` at random, fail, hang or
/// vanish in the middle of it. Every call must be answered, by a reply or
/// a named D-Bus error of one readable line; every few hundred calls a
/// health round checks that undod still does its job within its memory.
final class Fuzzer {
    /// What went wrong, with what is needed to replay it.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Figures of a run, for the closing note and `make fuzz`.
    struct Figures: CustomStringConvertible {
        var calls = 0, replies = 0, errors = 0, healthRounds = 0, appsVanished = 0
        var errorNames: [String: Int] = [:]
        var peakRSS = 0
        var description: String {
            "\(calls) calls: \(replies) replies, \(errors) named errors (\(errorNames.count) names), "
                + "\(healthRounds) health rounds, \(appsVanished) apps vanished mid-apply, peak RSS \(peakRSS >> 10) KiB"
        }
    }

    let f: DaemonFixture
    let seed: UInt64
    private var values: FuzzValues
    private var random: SplitMix64
    private var apps: [TestApp] = []
    private var targets: [(path: String, target: FuzzTarget)] = []
    private(set) var figures = Figures()
    /// The most RSS undod may use: the run's budget plus 80 MiB.
    let rssLimit: Int

    /// How often a health round runs, in calls.
    static let healthEvery = 300
    /// How long any call may wait for its answer.
    static let answerMilliseconds = 20_000

    init(f: DaemonFixture, seed: UInt64, budgetBytes: Int) throws {
        self.f = f
        self.seed = seed
        random = SplitMix64(seed: seed)
        values = FuzzValues(random: SplitMix64(seed: seed ^ 0x5EED))
        rssLimit = budgetBytes + (80 << 20)
        for _ in 0..<4 { apps.append(try f.app()) }
        try learnTargets()
    }

    /// The methods of the manager and of a stack, from their introspection.
    private func learnTargets() throws {
        let probe = try f.app("org.fuzz.probe")
        values.knownPaths.append(probe.stack)
        for path in ["/org/undod/Undo1", probe.stack] {
            let xml = try f.watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                                interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            for target in FuzzTarget.parse(xml.first?.string ?? "") { targets.append((path, target)) }
        }
        guard targets.count > 10 else { throw Failure(description: "introspection offered only \(targets.count) methods") }
    }

    /// Makes `count` calls, a few at a time, with health rounds between.
    func run(calls count: Int) throws {
        while figures.calls < count {
            let batch = min(8, count - figures.calls)
            try send(batch)
            if figures.calls / Self.healthEvery != (figures.calls - batch) / Self.healthEvery { try healthRound() }
        }
        try healthRound()
    }

    /// Sends `count` calls at once and waits until each is answered.
    private func send(_ count: Int) throws {
        var pending = 0
        var failure: Failure?
        for _ in 0..<count {
            let index = figures.calls
            figures.calls += 1
            reshuffleApps()
            let app = random.pick(apps)
            let message = try random.chance(12) ? applyMessage() : nextMessage()
            let described = "call \(index) (seed \(seed)): \(message.member ?? "?") on \(message.path ?? "?")"
            pending += 1
            app.connection.call(message, timeoutMilliseconds: Self.answerMilliseconds) { [self] result in
                pending -= 1
                if let problem = check(result, app: app) { failure = failure ?? Failure(description: "\(described): \(problem)") }
            }
        }
        guard f.wait(timeout: Self.answerMilliseconds + 5_000, until: { pending == 0 }) else {
            throw Failure(description: "\(pending) calls unanswered (seed \(seed), before call \(figures.calls))")
        }
        if let failure { throw failure }
        guard f.daemon.process.isRunning else {
            throw Failure(description: "undod died (seed \(seed), by call \(figures.calls)): \(f.daemon.log.suffix(2_000))")
        }
    }

    /// What is wrong with an answer, or nil.
    private func check(_ result: Result<Message, DBusError>, app: TestApp) -> String? {
        switch result {
        case .success(let reply):
            figures.replies += 1
            if let path = reply.arguments.first?.string, path.hasPrefix("/org/undod/Undo1/stack/"),
               !values.knownPaths.contains(path) { values.knownPaths.append(path) }
            return nil
        case .failure(let error):
            // The app's own connection went away with it: not undod's answer.
            if error.name == DBusError.Names.disconnected, !app.connection.isConnected { return nil }
            figures.errors += 1
            figures.errorNames[error.name, default: 0] += 1
            guard error.name.hasPrefix("org.undod.Undo1.Error.") || error.name.hasPrefix("org.freedesktop.DBus.Error.") else {
                return "an error without a known name: \(error.name)"
            }
            guard error.name != DBusError.Names.noReply else { return "no answer within \(Self.answerMilliseconds) ms" }
            guard !error.message.isEmpty, !error.message.contains("\n"), error.message.count <= 1_500 else {
                return "\(error.name) with a message that is not one short line (\(error.message.count) characters)"
            }
            return nil
        }
    }

    /// The next call: a real method with its arguments, with wrong ones, or
    /// a member that does not exist.
    private func nextMessage() throws -> Message {
        values.budget = FuzzValues.messageBudget
        let (path, target) = random.pick(targets)
        let where_ = random.chance(70) ? path : values.path()
        var signature = target.signature
        if random.chance(15) { signature = random.pick(FuzzValues.otherSignatures) }
        if random.chance(5) { signature += random.pick(FuzzValues.otherSignatures) }
        var arguments = FuzzValues.types(of: signature).map { values.value($0) }
        if random.chance(5) { arguments = Array(arguments.dropLast()) }
        let member = random.chance(3) ? "Fuzz\(random.below(9))" : target.member
        do {
            return try Message.methodCall(destination: "org.undod.Undo1", path: where_, interface: target.interface,
                                          member: member, arguments: arguments)
        } catch {
            // A value our own encoder refuses (a path it cannot carry): a plain Ping instead.
            return try Message.methodCall(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                          interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
    }

    /// An undo or redo that reaches an application: one app makes sure it
    /// owns a stack with something on it (its answers do not count), and
    /// the call asks for an undo or redo there.
    private func applyMessage() throws -> Message {
        let owner = random.pick(apps)
        values.budget = FuzzValues.messageBudget
        if owner.connection.isConnected {
            let path = try? owner.register("org.fuzz.owner\(random.below(8))", ["persist": .bool(random.chance(30))])
            if let path, !path.isEmpty {
                for _ in 0..<random.below(3) { _ = try? owner.push("Fuzz", undo: values.bytes(), redo: values.bytes()) }
                if !values.knownPaths.contains(path) { values.knownPaths.append(path) }
                return try Message.methodCall(destination: "org.undod.Undo1", path: path, interface: "org.undod.Undo1.Stack",
                                              member: random.chance(70) ? "Undo" : "Redo")
            }
        }
        return try Message.methodCall(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                      interface: "org.undod.Undo1.Manager", member: "UndoFocused")
    }

    /// Sets how each app answers `Apply` from now on; now and then one
    /// vanishes in the middle of an `Apply` and another takes its place.
    private func reshuffleApps() {
        for index in apps.indices where random.chance(5) {
            switch random.below(10) {
            case 0...5: apps[index].behaviour = .apply
            case 6: apps[index].behaviour = .fail(DBusError(name: "org.fuzz.Error.Refused", message: "no"))
            case 7: apps[index].behaviour = .fail(DBusError(name: "org.undod.Undo1.Error.Obsolete", message: "gone"))
            case 8: apps[index].behaviour = .hang
            default:
                let app = apps[index]
                app.behaviour = .custom { [weak self] _ in
                    self?.figures.appsVanished += 1
                    app.quit()
                }
                if let fresh = try? f.app() { apps[index] = fresh }
            }
        }
    }

    /// Ping, then a full register/push/undo/redo cycle from a fresh
    /// connection, and undod's RSS within its bound.
    private func healthRound() throws {
        figures.healthRounds += 1
        let context = "health round \(figures.healthRounds) after call \(figures.calls) (seed \(seed))"
        do {
            _ = try f.watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                          interface: "org.freedesktop.DBus.Peer", member: "Ping")
            let app = try f.app()
            defer { app.quit() }
            let path = try app.register("org.fuzz.health", ["document": .string("round \(figures.healthRounds)"),
                                                            "persist": .bool(false)])
            let group = try app.push("Health", undo: [1, 2, 3], redo: [4, 5, 6])
            guard try f.stack(path, "Undo") == [.uint64(group), .string("Health")],
                  try f.stack(path, "Redo") == [.uint64(group), .string("Health")],
                  app.applied.map(\.payloads) == [[[1, 2, 3]], [[4, 5, 6]]] else {
                throw Failure(description: "\(context): the cycle went wrong: \(app.applied)")
            }
            _ = try app.call("Close", [.bool(true)])
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(description: "\(context): \(error)")
        }
        let rss = Self.residentBytes(of: f.daemon.process.processIdentifier)
        figures.peakRSS = max(figures.peakRSS, rss)
        // A sanitized undod keeps shadow memory and a quarantine of freed
        // blocks: its RSS says nothing about undod's own bounds.
        guard rss <= rssLimit || ProcessInfo.processInfo.environment["UNDOD_TEST_SANITIZER"] != nil else {
            throw Failure(description: "\(context): undod's RSS is \(rss >> 20) MiB, over \(rssLimit >> 20) MiB")
        }
    }

    /// A process's resident set size, from /proc.
    static func residentBytes(of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib << 10
    }
}
