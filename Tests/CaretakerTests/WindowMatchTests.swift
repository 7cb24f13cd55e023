import Caretaker
import Testing
import Undo1

/// The one focus rule every window strategy applies (`WindowMatch`), over
/// stacks registered by connections of known processes: the window's own
/// process first, never a stack that merely declared someone else's window.
@Suite struct WindowMatchTests {
    /// Connections and the processes they belong to.
    static let processes: [String: UInt32] = [":1.1": 100, ":1.2": 200, ":1.3": 300, ":1.4": 400]
    /// Processes and the Flatpak sandbox they run in.
    static let sandboxes: [UInt32: String] = [300: "org.example.Paint", 400: "org.example.Paint"]
    let match = WindowMatch(processOf: { processes[$0] }, sandboxOf: { sandboxes[$0] })

    static func declaring(_ windows: [UInt64], document: String = "") -> RegistrationOptions {
        RegistrationOptions(document: document, windows: windows)
    }

    @Test func theWindowsOwnProcessWinsOverAnyDeclaration() throws {
        let f = try ServiceFixture()
        let notes = try f.register("org.example.Notes", caller: ":1.1", options: Self.declaring([0x40_0001]))
        // Another app declares Notes' window and keeps saying it is active.
        let thief = try f.register("org.example.Thief", caller: ":1.2", options: Self.declaring([0x40_0001]))
        _ = thief
        let front = FrontWindow(processID: 100, windows: [0x40_0001], label: "notes (pid 100)")
        #expect(try match.stack(for: front, in: f.service.registry).get() === notes)
    }

    @Test func amongOneProcesssStacksTheOneThatDeclaredTheWindowComesFirst() throws {
        let f = try ServiceFixture()
        let first = try f.register("org.example.Editor", caller: ":1.1", options: Self.declaring([7], document: "a"))
        let second = try f.register("org.example.Editor", caller: ":1.1", options: Self.declaring([8], document: "b"))
        #expect(try match.stack(for: FrontWindow(processID: 100, windows: [7], label: "w"), in: f.service.registry).get() === first)
        #expect(try match.stack(for: FrontWindow(processID: 100, windows: [8], label: "w"), in: f.service.registry).get() === second)
        // A window none declared: the most recently active of the process.
        #expect(try match.stack(for: FrontWindow(processID: 100, windows: [9], label: "w"), in: f.service.registry).get() === second)
    }

    @Test func aDeclarationFindsAWindowOnlyWhereItsProcessOwnsNoStack() throws {
        let f = try ServiceFixture()
        let remote = try f.register("org.example.Remote", caller: ":1.2", options: Self.declaring([0x50_0002]))
        // The window is drawn by process 999, which owns no stack.
        #expect(try match.stack(for: FrontWindow(processID: 999, windows: [0x50_0002], label: "w"),
                                in: f.service.registry).get() === remote)
    }

    @Test func aSandboxFindsTheStacksOfItsProxysProcess() throws {
        let f = try ServiceFixture()
        let paint = try f.register("org.example.Paint", caller: ":1.3")
        // The window's process 400 owns no stack; its sandbox's proxy (300) does.
        #expect(try match.stack(for: FrontWindow(processID: 400, label: "paint (pid 400)"),
                                in: f.service.registry).get() === paint)
        // The compositor's sandbox id counts as well.
        #expect(try match.stack(for: FrontWindow(processID: 555, sandboxAppID: "org.example.Paint", label: "p"),
                                in: f.service.registry).get() === paint)
    }

    @Test func aWindowWhoseAppHasNoStackFocusesNothingAndSaysWhy() throws {
        let f = try ServiceFixture()
        _ = try f.register("org.example.Notes", caller: ":1.1")
        let front = FrontWindow(processID: 4242, label: "xterm (pid 4242)")
        #expect(match.stack(for: front, in: f.service.registry) == .failure(.noHistory("xterm (pid 4242)")))
        #expect(NoFocus.noHistory("xterm (pid 4242)").clause == "the window in front, xterm (pid 4242), has no undo history")
        #expect(match.stack(for: nil, in: f.service.registry) == .failure(.noWindow))
        #expect(match.stack(for: FrontWindow(processID: 0, label: "none"), in: f.service.registry) == .failure(.noWindow))
    }

    @Test func aStackThatOptedOutIsNeverFocusedAndSaysSo() throws {
        let f = try ServiceFixture()
        let secret = try f.register("org.example.Secret", caller: ":1.1",
                                    options: RegistrationOptions(globalTrigger: false, windows: [5]))
        // Nor may another process's declaration of the window stand in.
        _ = try f.register("org.example.Thief", caller: ":1.2", options: Self.declaring([5]))
        let outcome = match.stack(for: FrontWindow(processID: 100, windows: [5], label: "w"), in: f.service.registry)
        #expect(outcome == .failure(.optedOut(secret.displayName)))
    }

    @Test func theAppIdAWindowGivesItselfIsNeverEvidence() throws {
        let f = try ServiceFixture()
        _ = try f.register("org.example.Notes", caller: ":1.1")
        // A process that owns nothing, reported with Notes' app id (the
        // compositor's sandbox id is empty): nothing.
        let front = FrontWindow(processID: 777, label: "org.example.Notes (pid 777)")
        #expect(match.stack(for: front, in: f.service.registry) == .failure(.noHistory("org.example.Notes (pid 777)")))
    }

    // MARK: Stacks that serve a process (a terminal's shells)

    /// A terminal (pid 500) running two shells (510, 520), one under a
    /// `sudo -s` (530 → 531); the file agent (`:1.4`, pid 400) owns their
    /// stacks. Start times are 1000 + pid.
    static let parents: [UInt32: UInt32] = [510: 500, 520: 500, 530: 500, 531: 530, 500: 90, 90: 1, 400: 1, 100: 1]
    let terminal = WindowMatch(processOf: { processes[$0] }, sandboxOf: { _ in nil },
                               parentOf: { parents[$0] }, startTimeOf: { parents[$0] == nil ? nil : 1000 + UInt64($0) })

    static func serving(_ pid: UInt32) -> (RegistrationOptions, ServedProcess) {
        (RegistrationOptions(document: "shell \(pid)", process: pid), ServedProcess(pid: pid, startTime: 1000 + UInt64(pid)))
    }

    func shell(_ f: ServiceFixture, _ pid: UInt32, pushes: Int = 1) throws -> StackRecord {
        let (options, served) = Self.serving(pid)
        let record = try f.register("org.undod.Shell", caller: ":1.4", options: options, served: served)
        for n in 0..<pushes { _ = try f.push(record, "rm \(pid)-\(n)", caller: ":1.4") }
        return record
    }

    @Test func aTerminalWithoutStacksFindsItsShellsStack() throws {
        let f = try ServiceFixture()
        let bash = try shell(f, 510)
        let front = FrontWindow(processID: 500, label: "xterm (pid 500)")
        #expect(try terminal.stack(for: front, in: f.service.registry).get() === bash)
        #expect(!terminal.isGuess(for: front, in: f.service.registry), "one shell with history: no guess")
        #expect(terminal.candidates(for: front, in: f.service.registry).map(\.number) == [bash.number])
        // A shell below another process of the terminal (sudo -s) counts too.
        let nested = try shell(f, 531)
        #expect(try terminal.stack(for: front, in: f.service.registry).get() === nested)
        // Another window's process (the grandparent) is no terminal of it.
        #expect(terminal.stack(for: FrontWindow(processID: 90, label: "session (pid 90)"), in: f.service.registry)
                == .success(nested))
        #expect(terminal.stack(for: FrontWindow(processID: 100, label: "notes (pid 100)"), in: f.service.registry)
                == .failure(.noHistory("notes (pid 100)")))
    }

    @Test func aProcessThatOwnsStacksKeepsItsWindowFromAnyShell() throws {
        let f = try ServiceFixture()
        _ = try shell(f, 510)
        // The terminal itself owns a stack (a terminal with undo of its own).
        let own = try f.register("org.example.Terminal", caller: ":1.1")
        let owner = WindowMatch(processOf: { $0 == ":1.1" ? 500 : Self.processes[$0] }, sandboxOf: { _ in nil },
                                parentOf: { Self.parents[$0] }, startTimeOf: { 1000 + UInt64($0) })
        #expect(try owner.stack(for: FrontWindow(processID: 500, label: "t"), in: f.service.registry).get() === own)
        #expect(owner.candidates(for: FrontWindow(processID: 500, label: "t"), in: f.service.registry).map(\.number)
                == [own.number])
    }

    @Test func severalShellsWithHistoryAreAGuessTheMostRecentFirst() throws {
        let f = try ServiceFixture()
        let first = try shell(f, 510)
        let second = try shell(f, 520)
        let front = FrontWindow(processID: 500, label: "xterm (pid 500)")
        #expect(try terminal.stack(for: front, in: f.service.registry).get() === second)
        #expect(terminal.isGuess(for: front, in: f.service.registry), "two tabs with history: a guess")
        _ = try f.push(first, "touch a", caller: ":1.4")
        #expect(try terminal.stack(for: front, in: f.service.registry).get() === first)
        #expect(Set(terminal.candidates(for: front, in: f.service.registry).map(\.number)) == [first.number, second.number])
        // A shell without history makes no guess of it.
        let quiet = try ServiceFixture()
        _ = try shell(quiet, 510)
        _ = try shell(quiet, 520, pushes: 0)
        #expect(!terminal.isGuess(for: front, in: quiet.service.registry))
    }

    @Test func aPidTakenByAnotherProcessServesNoStack() throws {
        let f = try ServiceFixture()
        let (options, _) = Self.serving(510)
        // Registered for the process that had pid 510 before (another start time).
        _ = try f.register("org.undod.Shell", caller: ":1.4", options: options,
                           served: ServedProcess(pid: 510, startTime: 7))
        let front = FrontWindow(processID: 500, label: "xterm (pid 500)")
        #expect(terminal.stack(for: front, in: f.service.registry) == .failure(.noHistory("xterm (pid 500)")))
        #expect(terminal.candidates(for: front, in: f.service.registry).isEmpty)
    }

    @Test func theServedProcessIsForgottenWhenTheOwnerLeavesAndReplacedWhenGiven() throws {
        let f = try ServiceFixture()
        let bash = try shell(f, 510)
        #expect(bash.servedProcess == ServedProcess(pid: 510, startTime: 1510))
        // Registered again without the option: kept; with 0: none.
        _ = try f.register("org.undod.Shell", caller: ":1.4", options: RegistrationOptions(document: "shell 510"))
        #expect(bash.servedProcess?.pid == 510)
        _ = try f.register("org.undod.Shell", caller: ":1.4", options: RegistrationOptions(document: "shell 510", process: 0))
        #expect(bash.servedProcess == nil)
        let (options, served) = Self.serving(510)
        _ = try f.register("org.undod.Shell", caller: ":1.4", options: options, served: served)
        f.service.peerLeft(":1.4")
        f.endTurn()
        #expect(bash.servedProcess == nil)
        #expect(terminal.stack(for: FrontWindow(processID: 500, label: "x"), in: f.service.registry)
                == .failure(.noHistory("x")))
    }
}

extension Result where Success == StackRecord, Failure == NoFocus {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x === y
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }
}
