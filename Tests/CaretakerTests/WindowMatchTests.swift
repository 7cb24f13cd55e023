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
