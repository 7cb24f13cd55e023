public import DBus
public import Undo1
import UndoCore

/// The declarations of undod's three interfaces, with their documentation:
/// the one table from which the daemon's objects, its `Introspect` answers,
/// `Service/org.undod.Undo1.xml` and UndoKit's client object are all made.
public enum Undo1Interfaces {
    private typealias A = Interface.Argument

    /// `org.undod.Undo1.Manager`, on the manager object.
    public static var manager: Interface { Interface(
        Undo1.managerInterface,
        doc: "The undo daemon: registers stacks, and undoes or redoes on the focused one.",
        methods: [
            Interface.declare("Register", inputs: [
                A("app_id", "s", doc: "1 to 255 characters from A-Z a-z 0-9 . _ -"),
                A("options", "a{sv}", doc: Undo1Keys.registerOptionsDoc),
            ], outputs: [A("stack", "o")],
                              doc: "Opens the caller's stack for (app_id, options[\"document\"]) and makes the caller its owner; adopts a detached stack with its history; focuses it."),
            Interface.declare("UndoFocused", outputs: [A("stack", "o"), A("group", "t"), A("name", "s")],
                              doc: "Undo on the focused stack; NoFocusedStack when there is none."),
            Interface.declare("RedoFocused", outputs: [A("stack", "o"), A("group", "t"), A("name", "s")],
                              doc: "Redo on the focused stack; NoFocusedStack when there is none."),
            Interface.declare("SetFocus", inputs: [A("stack", "o")],
                              doc: "Pins focus to a stack until an owner's Activate, Register or push moves it; under a window strategy, only a stack of the window in front (else NotAllowed)."),
            Interface.declare("Forget", inputs: [A("stack", "o")],
                              doc: "Deletes a stack that has no live owner, with its history, from memory and disk."),
            Interface.declare("Subscribe",
                              doc: "Asks for the stacks' signals (Pushed, Applied, PropertiesChanged), sent only while someone is subscribed; leaving the bus ends it."),
            Interface.declare("Unsubscribe", doc: "Ends the caller's subscription; nothing happens if it had none."),
            Self.reportFocus,
        ],
        properties: [
            Interface.declare(property: "FocusedStack", "o", doc: "The focused stack, or / when none."),
            Interface.declare(property: "FocusStrategy", "s", doc: "The focus strategy in effect: recent, x11, sway, kwin or gnome."),
            Interface.declare(property: "Version", "s", doc: "The daemon's version."),
            Interface.declare(property: "KeyProblem", "s",
                              doc: "Why the global undo key cannot work on this desktop now, with the command that fixes it; empty while it can."),
        ]) }

    /// `ReportFocus`, which also takes the pid as `i` or `d`: KWin's script
    /// engine sends every whole number as `i` (and may send `d`); undod
    /// reads the same non-negative whole number from each.
    static var reportFocus: Interface.Method {
        var method = Interface.declare("ReportFocus", inputs: [
            A("pid", "u", doc: "the window's process as the compositor knows it; 0: no window has focus"),
            A("app_id", "s", doc: "the app id the window gave itself (never used to pick a stack)"),
            A("sandbox_app_id", "s", doc: "the sandbox's app id where the compositor knows one, else empty"),
        ], doc: "Only from the Wayland compositor itself, the owner of org.kde.KWin or org.gnome.Shell serving the Wayland display (else NotAllowed): its word on the window in front, for the kwin and gnome focus strategies.")
        method.alsoAccepted = ["iss", "dss"]
        return method
    }

    /// `org.undod.Undo1.Stack`, on each stack object.
    public static var stack: Interface { Interface(
        Undo1.stackInterface,
        doc: "One application's (or document's) undo history.",
        methods: [
            Interface.declare("Push", inputs: [
                A("name", "s"), A("undo", "ay"), A("redo", "ay"),
                A("hints", "a{sv}", doc: Undo1Keys.pushHintsDoc),
            ],
                              outputs: [A("group", "t")],
                              doc: "Owner only. Records a group of one action and clears the redo side."),
            Interface.declare("PushGroup", inputs: [
                A("name", "s"), A("actions", "a(ayay)", doc: "(undo, redo) payloads of each action, in the order done"),
                A("hints", "a{sv}", doc: Undo1Keys.pushHintsDoc),
            ],
                              outputs: [A("group", "t")],
                              doc: "Owner only. Records a group of several actions, in the order they were done."),
            Interface.declare("Undo", outputs: [A("group", "t"), A("name", "s")],
                              doc: "Asks the owner to apply the top undo group (last action first), then moves it to the redo side."),
            Interface.declare("Redo", outputs: [A("group", "t"), A("name", "s")],
                              doc: "Asks the owner to apply the top redo group (first action first), then moves it to the undo side."),
            Interface.declare("SetClean", doc: "Owner only. Marks the present state as clean (saved)."),
            Interface.declare("Activate", doc: "Owner only. Tells the daemon this application has the user's focus."),
            Interface.declare("Deactivate",
                              doc: "Owner only. Tells the daemon this application no longer has the user's focus; under recent it is not focused until it is active again."),
            Interface.declare("Clear", doc: "Owner only. Drops the whole history."),
            Interface.declare("Close", inputs: [A("discard", "b")],
                              doc: "Owner only. Gives the stack up: deletes it (true) or keeps it for a later Register (false)."),
            Interface.declare("History", outputs: [A("undo", "a(tsxt)"), A("redo", "a(tsxt)")],
                              doc: "Both sides, top first: (group id, name, time in µs since the epoch, payload bytes)."),
        ],
        signals: [
            .init("Applied", arguments: [A("direction", "s"), A("group", "t"), A("name", "s")],
                  doc: "After every successful undo (\"undo\") or redo (\"redo\")."),
            .init("Pushed", arguments: [A("group", "t"), A("name", "s"), A("merged", "b")],
                  doc: "After every successful push; merged when it merged into the top group."),
        ],
        properties: [
            Interface.declare(property: "AppId", "s", doc: "The application id."),
            Interface.declare(property: "Document", "s", doc: "The document, empty for the application's main stack."),
            Interface.declare(property: "Title", "s", doc: "The human name."),
            Interface.declare(property: "Owner", "s", doc: "The owner's unique name, empty when detached."),
            Interface.declare(property: "CanUndo", "b", doc: "Whether there is something to undo."),
            Interface.declare(property: "CanRedo", "b", doc: "Whether there is something to redo."),
            Interface.declare(property: "UndoName", "s", doc: "The name of the next undo, empty when none."),
            Interface.declare(property: "RedoName", "s", doc: "The name of the next redo, empty when none."),
            Interface.declare(property: "UndoDepth", "u", doc: "Groups on the undo side."),
            Interface.declare(property: "RedoDepth", "u", doc: "Groups on the redo side."),
            Interface.declare(property: "Limit", "u", doc: "Most undo groups kept; 0 for no count limit."),
            Interface.declare(property: "Bytes", "t", doc: "Payload bytes held, both sides."),
            Interface.declare(property: "MaxBytes", "t", doc: "Most payload bytes kept."),
            Interface.declare(property: "Clean", "b", doc: "Whether the present state is the clean (saved) one."),
            Interface.declare(property: "Persistent", "b", doc: "Whether the history is kept on disk."),
            Interface.declare(property: "GlobalTrigger", "b", doc: "Whether the system-wide trigger may undo this stack."),
        ]) }

    /// `org.undod.Undo1.Client`, which applications export and undod calls.
    public static var client: Interface { Interface(
        Undo1.clientInterface,
        doc: "Exported by an application at /org/undod/Undo1/Client; undod calls it on the stack's owner only.",
        methods: [
            Interface.declare("Apply", inputs: [A("stack", "o"), A("group", "t"), A("direction", "s"),
                                                A("payloads", "aay")],
                              doc: "Apply these payloads in the order given, then reply; reply with an error if they could not be applied (org.undod.Undo1.Error.Obsolete: the group can never be applied)."),
        ]) }

    /// The three interfaces as one introspection document.
    public static var document: String { IntrospectionXML.document([manager, stack, client]) }
}
