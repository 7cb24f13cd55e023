// line-editor: a line-based editor in the terminal whose undo lives in undod,
// written against UndoKit's layer 2, `UndoManager` (NSUndoManager's shape).
//
//   line-editor [--address BUS_ADDRESS] [--app-id ID]
//
// Commands, one a line: `a TEXT` append, `i N TEXT` insert before line N,
// `d N` delete line N, `e N TEXT` replace line N, `p` print, `u` undo,
// `r` redo, `q` quit. Every edit registers its inverse as a closure; undo runs
// it, and what the closure registers becomes the redo. The closures stay in
// this process; undod keeps the order, names and limits, and answers the global
// undo key and `undoctl undo` by calling back here — so undos from outside
// land in the same history, and the editor says when one arrives. (In a
// terminal the window in front is the terminal emulator's, which the x11
// focus strategy does not tie to this process: name the stack instead,
// `undoctl undo org.undod.examples.LineEditor`.)

import Dispatch
import UndoKit
#if canImport(Glibc)
import Glibc
#endif

/// The editor: its lines and their undo manager, on the main actor, where
/// `UndoManager` lives and runs the undo closures.
@MainActor
final class LineEditor {
    private(set) var lines: [String] = []
    let undoManager: UndoManager

    init(undoManager: UndoManager) { self.undoManager = undoManager }

    // MARK: Edits. Each one registers its inverse, itself an edit: undoing it
    // registers the redo, and redoing registers the undo again. (The guards
    // only matter if the history and the lines ever disagree.)

    func insert(_ line: String, at index: Int) {
        guard index <= lines.count else { return }
        lines.insert(line, at: index)
        undoManager.registerUndo(withTarget: self) { $0.remove(at: index) }
    }

    func remove(at index: Int) {
        guard lines.indices.contains(index) else { return }
        let line = lines.remove(at: index)
        undoManager.registerUndo(withTarget: self) { $0.insert(line, at: index) }
    }

    func replace(at index: Int, with line: String) {
        guard lines.indices.contains(index) else { return }
        let old = lines[index]
        lines[index] = line
        undoManager.registerUndo(withTarget: self) { $0.replace(at: index, with: old) }
    }

    /// One command as one named undo group. The explicit group goes to undod
    /// at `endUndoGrouping`, so the titles printed next are already right
    /// (left to `groupsByEvent`, it would close at the end of this turn).
    private func edit(_ name: String, _ body: () -> Void) {
        undoManager.beginUndoGrouping()
        body()
        undoManager.setActionName(name)   // not in the edits: undo must keep the name
        undoManager.endUndoGrouping()
    }

    // MARK: Commands

    /// Runs one command line; false: quit.
    func run(_ command: String) async -> Bool {
        let (verb, rest) = Self.split(Substring(command))
        switch verb {
        case "a": edit("Append") { insert(String(rest), at: lines.count) }
        case "i":
            let (number, text) = Self.split(rest)
            guard let index = lineIndex(number, orEnd: true) else { return true }
            edit("Insert") { insert(String(text), at: index) }
        case "d":
            guard let index = lineIndex(rest) else { return true }
            edit("Delete") { remove(at: index) }
        case "e":
            let (number, text) = Self.split(rest)
            guard let index = lineIndex(number) else { return true }
            edit("Edit") { replace(at: index, with: String(text)) }
        case "u", "r":
            // While this waits for undod, the main actor is free to run the
            // Apply that undod sends back: that is where the closures run.
            do throws(UndoKitError) {
                if verb == "u" { try await undoManager.undo() } else { try await undoManager.redo() }
            } catch {
                switch error {
                case .nothingToUndo: say("Nothing to undo.")
                case .nothingToRedo: say("Nothing to redo.")
                case .daemonUnavailable: say("undod is not running: no undo or redo until it is back.")
                default: say(error.message)
                }
            }
        case "p", "": break
        case "q": return false
        default: say("Commands: a TEXT, i N TEXT, d N, e N TEXT, p, u, r, q.")
        }
        show()
        return true
    }

    /// Prints the buffer and what the Undo and Redo menu items would say.
    func show() {
        if lines.isEmpty { say("      (no lines)") }
        for (offset, line) in lines.enumerated() {
            let number = String(offset + 1)
            say(String(repeating: " ", count: max(0, 4 - number.count)) + number + "  " + line)
        }
        let undo = undoManager.undoMenuItemTitle + (undoManager.canUndo ? "" : " (disabled)")
        let redo = undoManager.redoMenuItemTitle + (undoManager.canRedo ? "" : " (disabled)")
        say("menu: \(undo) | \(redo)")
    }

    /// Follows the manager's changes and reports those that came from
    /// outside: the global key, `undoctl undo`, another program.
    func followChanges() async {
        for await change in undoManager.changes() {
            switch change.kind {
            case .undone, .redone:
                guard change.fromOutside else { continue }
                let what = change.kind == .undone ? "Undo \(change.redoActionName)" : "Redo \(change.undoActionName)"
                say("\n« \(what), from outside »")
            case .synchronized:
                say("\n« the history was brought in line with undod's »")
            default: continue
            }
            show()
            prompt()
        }
    }

    /// Says when undod goes away or comes back (the first value is now).
    func followDaemon(_ availability: AsyncStream<Bool>) async {
        var running = true
        for await now in availability where now != running {
            running = now
            say(now ? "\n« undod is back »" : "\n« undod went away: editing works, undo does not until it is back »")
            prompt()
        }
    }

    /// "i 3 some text" → ("i", "3 some text").
    private static func split(_ text: Substring) -> (Substring, Substring) {
        guard let space = text.firstIndex(of: " ") else { return (text, "") }
        return (text[..<space], text[text.index(after: space)...])
    }

    /// The index of line `number` (counted from 1), or nil after saying why;
    /// `orEnd`: one past the last line too.
    private func lineIndex(_ number: Substring, orEnd: Bool = false) -> Int? {
        let last = lines.count + (orEnd ? 1 : 0)
        guard let n = Int(number), n >= 1, n <= last else {
            say(last == 0 ? "There are no lines yet." : "No line \(number): give a number from 1 to \(last).")
            return nil
        }
        return n - 1
    }
}

/// Standard input, a line at a time, read on a thread of its own: the main
/// actor never blocks on the keyboard and stays free for undod's callbacks.
func standardInputLines() -> AsyncStream<String> {
    let (lines, input) = AsyncStream.makeStream(of: String.self)
    DispatchQueue(label: "line-editor.stdin").async {
        while let line = readLine() { input.yield(line) }
        input.finish()
    }
    return lines
}

func say(_ text: String) {
    write(text + "\n")
}

func prompt() {
    write("> ")
}

/// Writes to stdout at once, unbuffered (stdout may be a pipe). Not
/// `print` + `fflush(nil)`: that flush would lock stdin too, and wait while
/// the reader thread sits in `readLine`.
func write(_ text: String) {
    var text = text
    text.withUTF8 { _ = Glibc.write(1, $0.baseAddress, $0.count) }
}

/// Says what went wrong on stderr, with a hint, and exits.
func fail(_ message: String, hint: String, status: Int32 = 1) -> Never {
    var text = "line-editor: \(message)\n\(hint)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

enum LineEditorApp {
    @MainActor
    static func main() async {
        var address: String?
        var appId = "org.undod.examples.LineEditor"
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--address", "--app-id":
                guard let value = arguments.popFirst() else { fail("\(argument) needs a value.", hint: usage, status: 2) }
                if argument == "--address" { address = value } else { appId = value }
            case "-h", "--help": say(usage); return
            default: fail("unknown option \(argument).", hint: usage, status: 2)
            }
        }

        // Connect to the bus (this needs no undod yet)…
        let client: UndoClient
        do throws(UndoKitError) {
            client = try UndoClient(address: address)
        } catch {
            fail(error.message, hint: "Give the bus with --address ADDR, or set DBUS_SESSION_BUS_ADDRESS.")
        }
        // …and register the stack (memory-only: the closures die with us).
        let undoManager: UndoManager
        do throws(UndoKitError) {
            undoManager = try await UndoManager(client: client, appId: appId, options: StackOptions(title: "Line Editor"))
        } catch UndoKitError.daemonUnavailable {
            fail("undod is not running on \(address ?? "the session bus").",
                 hint: "Start it first (`undod &`, or `make run` in undod's checkout), then run line-editor again.")
        } catch {
            fail(error.message, hint: "If another line-editor runs with this app id, give this one --app-id ID.")
        }

        let editor = LineEditor(undoManager: undoManager)
        Task { await editor.followChanges() }
        Task { await editor.followDaemon(client.daemonAvailability()) }
        say("Line Editor: its undo history lives in undod (\(undoManager.stack.path)).")
        say("Commands: a TEXT, i N TEXT, d N, e N TEXT, p, u, r, q.  Elsewhere: undoctl undo \(appId)")
        editor.show()
        prompt()
        for await line in standardInputLines() {
            guard await editor.run(line) else { break }
            prompt()
        }

        // Nobody but this process could apply its closures: give the stack up
        // for good rather than leave a useless history detached in undod.
        _ = try? await undoManager.stack.close(discard: true)
        client.close()
    }

    static let usage = "usage: line-editor [--address BUS_ADDRESS] [--app-id ID]"
}

await LineEditorApp.main()
