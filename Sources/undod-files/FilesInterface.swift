import DBus
import FileUndo

/// `org.undod.Files1`, which the agent owns on the session bus (D-Bus
/// activated) and `undod-files-run` calls: one declaration for
/// serving, calling and introspection.
enum FilesInterface {
    /// The agent's bus name.
    static let busName = FilesBus.busName
    /// Its one object.
    static let path = FilesBus.path
    /// The interface's name.
    static let name = FilesBus.interface

    /// The interface, its handlers unbound.
    static var declaration: Interface { Interface(name, doc: "undod-files, the shell's undo: what a command changed becomes one group on its shell's stack.", methods: [
        Interface.Method("Record", inputs: [
            Interface.Argument("shell", "u", doc: "the shell's process (its stack serves it)"),
            Interface.Argument("name", "s", doc: "the command line as typed: the group's name"),
            Interface.Argument("change", "ay", doc: "what it changed (a RecordedChange payload)"),
        ], outputs: [Interface.Argument("group", "t")],
        doc: "Pushes one group named name, undone and redone by this agent, on the shell's stack "
            + "(app org.undod.Shell, its document the shell's session), registering it first.",
        handler: { _ in }),
        Interface.Method("Adopt", inputs: [
            Interface.Argument("shell", "u", doc: "the shell's process"),
        ], outputs: [Interface.Argument("stack", "o")],
        doc: "Registers the shell's stack, as Record does before it pushes, so that it has an owner "
            + "again: what undoctl asks when this agent was restarted since the shell's last command.",
        handler: { _ in }),
    ]) }
}
