import Caretaker
import DBus
import Loop
import Logging
import Undo1
import UndoCore

/// What every trigger asks for, carried out in one place: undo or redo on
/// the focused stack (for a notification's button: on the stack and group it
/// offers, nothing else), asking first when `notify.confirm` is on, and the
/// notification that says what happened. The global key, the Unix signals,
/// the portal's shortcuts and `UndoFocused`/`RedoFocused` all come here.
/// Confined to the loop.
final class TriggerHandler {
    /// What a notification's buttons do.
    enum Offer {
        /// Undo or redo exactly this group of this stack (the Redo button
        /// after an undo, the Undo button after a redo).
        case apply(Direction, stack: UInt64, group: ExpectedGroup)
        /// The confirm question: its Undo button undoes this group, as it
        /// was when asked about.
        case confirm(stack: UInt64, group: ExpectedGroup)
    }

    /// How long a confirm question waits for an answer at most. The question
    /// lasts as long as the notification server shows it (its timeout, as
    /// the user set it); this bounds it where a server keeps it for ever.
    /// Unanswered, nothing is undone.
    static let confirmMilliseconds = 60_000
    /// How long an error is shown.
    static let errorMilliseconds: Int32 = 3_000

    private unowned let service: UndoService
    private let departed: DepartedOwners
    private let scheduler: any Scheduler
    private let notifier: FeedbackNotifier<Offer>
    /// The open confirm question: the group it asks about, and its timer.
    private var question: (group: UInt64, timer: ScheduledTimer)?

    /// The handler of `service`'s triggers, notifying on `connection`;
    /// `departed` catches up with an owner that left unheard.
    init(service: UndoService, departed: DepartedOwners, config: DaemonConfig, connection: Connection,
         scheduler: any Scheduler) {
        self.service = service
        self.departed = departed
        self.config = config
        self.scheduler = scheduler
        notifier = FeedbackNotifier(connection: connection, log: service.log)
        notifier.onAction = { [unowned self] offer, key in self.pressed(key, on: offer) }
        notifier.onClosed = { [unowned self] offer in self.unanswered(offer, why: "was closed unanswered") }
        notifier.onUndelivered = { [unowned self] offer, error in
            self.unanswered(offer, why: "could not be shown (\(error.name))")
        }
    }

    /// The config in force (`notify.*`); the daemon sets it again on a reload.
    var config: DaemonConfig
    private var log: Log { service.log }

    /// Whether focus is a guess now (`recent` with a display present): set
    /// by the daemon from the desktop.
    var focusIsAGuess: () -> Bool = { false }

    /// Whether a triggered undo asks first (`notify.confirm`): always, never,
    /// or while focus is a guess — and then only where a notification
    /// server runs to ask (none is ever started for it: without one, the key
    /// undoes as it would without asking).
    private var asksFirst: Bool {
        switch config.notifyConfirm {
        case .always: true
        case .never: false
        case .whileGuessing: config.notifyEnabled && focusIsAGuess() && notifier.isRunning
        }
    }

    /// `UndoFocused`/`RedoFocused`: never asks first (the caller waits for
    /// the answer), then notifies.
    func call(_ direction: Direction, caller: String,
              completion: @escaping (StackRecord?, Result<CompletedMove, ServiceError>) -> Void) {
        // The handler lives as long as the daemon, and each closure is let
        // go once answered (or, the question's timer, once it fires or is
        // cancelled): held strongly everywhere, as one weak reference would
        // give it a side table and slow every retain of it from then on.
        applyFocused(direction, caller: caller) { [self] record, result in
            report(direction, on: record, result, source: nil)
            completion(record, result)
        }
    }

    /// A trigger from outside the bus (the global key, a Unix signal, the
    /// portal's shortcut), named by `source` in the log.
    func fire(_ direction: Direction, source: String) {
        guard direction == .undo, asksFirst else {
            applyFocused(direction, caller: nil) { [self] record, result in
                report(direction, on: record, result, source: source)
            }
            return
        }
        guard config.notifyEnabled else {
            log.notice(.cannotAsk, "\(source): notify.confirm is on but notify.enabled is off, so undod cannot ask: "
                + "nothing was undone.")
            return
        }
        service.withFocusedStack { [self] record in
            guard let record else {
                return report(.undo, on: nil, .failure(service.noFocusedStack), source: source)
            }
            guard let top = record.stack.topUndoGroup else {
                return report(.undo, on: record, .failure(.model(.nothingToUndo)), source: source)
            }
            ask(about: ExpectedGroup(id: top.id, name: top.name, time: top.time), on: record, source: source)
        }
    }

    /// The service's `applyFocused`, a focused stack waiting for a late
    /// answer having its owner checked (`DepartedOwners.serve`).
    private func applyFocused(_ direction: Direction, caller: String?,
                              completion: @escaping (StackRecord?, Result<CompletedMove, ServiceError>) -> Void) {
        departed.serve({ [service] done in service.applyFocused(direction, caller: caller, completion: done) },
                       then: completion)
    }

    // MARK: Asking first

    private func ask(about group: ExpectedGroup, on record: StackRecord, source: String) {
        log.notice(.confirmAsked, "\(source): asking before undoing “\(group.name)” in \(record.title).")
        endQuestion()
        let timer = scheduler.schedule(afterMilliseconds: Self.confirmMilliseconds) { [self] in
            guard question?.group == group.id else { return }
            question = nil
            notifier.withdraw()
            log.notice(.confirmUnanswered, "No answer to “Undo \(group.name)?” in time: nothing was undone.")
        }
        // The question stands before it is shown: a notification that cannot
        // be shown ends it at once.
        question = (group.id, timer)
        notifier.show(.init(
            summary: "Undo \(group.name) in \(record.title)?",
            body: Self.markup("Undo (or a click here) reverts it; Cancel, or letting this go, leaves it as it is."),
            buttons: [.init(key: "undo", label: "Undo"), .init(key: "cancel", label: "Cancel")],
            urgency: 1, offer: .confirm(stack: record.number, group: group)))
    }

    private func pressed(_ key: String, on offer: Offer) {
        switch offer {
        case .confirm(let stack, let group):
            endQuestion()
            guard key == "undo" || key == "default" else {
                log.notice(.confirmDeclined, "“Undo \(group.name)?” was answered \(key): nothing was undone.")
                return
            }
            apply(.undo, stack: stack, group: group, source: "the notification's Undo button")
        case .apply(let direction, let stack, let group):
            guard key == direction.wireName || key == "default" else { return }
            let button = direction == .undo ? "Undo" : "Redo"
            apply(direction, stack: stack, group: group, source: "the notification's \(button) button")
        }
    }

    private func unanswered(_ offer: Offer, why: String) {
        guard case .confirm(_, let group) = offer, question?.group == group.id else { return }
        endQuestion()
        log.notice(.confirmUnanswered, "“Undo \(group.name)?” \(why): nothing was undone.")
    }

    private func endQuestion() {
        guard let question else { return }
        question.timer.cancel()
        self.question = nil
    }

    /// Moves exactly `group` of stack `number` (unchanged since offered), or nothing.
    private func apply(_ direction: Direction, stack number: UInt64, group: ExpectedGroup, source: String) {
        guard let record = service.registry.byNumber[number] else {
            return report(direction, on: nil, .failure(.unknownStack(StackPath(number: number).path)), source: source)
        }
        departed.serve({ [service] done in
            service.apply(direction, on: record, caller: nil, expecting: group) { done(record, $0) }
        }, then: { [self] _, result in report(direction, on: record, result, source: source) })
    }

    // MARK: Saying what happened

    /// Shows `note` in place of the notification shown last; a question
    /// that notification asked ends with it.
    private func show(_ note: FeedbackNotifier<Offer>.Note) {
        endQuestion()
        notifier.show(note)
    }

    /// Logs a trigger's outcome (not a method call's: its caller has the
    /// answer) and shows the notification.
    private func report(_ direction: Direction, on record: StackRecord?, _ result: Result<CompletedMove, ServiceError>,
                        source: String?) {
        if let source {
            switch result {
            case .success(let outcome):
                log.notice(.triggerApplied,
                           "\(source): \(direction == .undo ? "undid" : "redid") “\(outcome.name)” in \(record?.title ?? "?").")
            case .failure(let error):
                log.notice(.triggerRefused, "\(source): \(error.refusal(stack: record?.displayName).sentence)")
            }
        }
        guard config.notifyEnabled else { return }
        guard notifier.isAvailable else {
            // What `show` would do, without making a note nobody sees.
            endQuestion()
            return
        }
        switch result {
        case .success(let outcome):
            guard let record else { return }
            let back: Direction = outcome.direction == .undo ? .redo : .undo
            let moved = (back == .redo ? record.stack.topRedoGroup : record.stack.topUndoGroup)
                .flatMap { $0.id == outcome.group ? $0 : nil }
            show(.init(
                summary: "\(outcome.direction == .undo ? "Undid" : "Redid") \(outcome.name) in \(record.title)",
                icon: outcome.direction == .undo ? "edit-undo" : "edit-redo",
                buttons: [.init(key: back.wireName, label: back == .redo ? "Redo" : "Undo")],
                offer: moved.map { .apply(back, stack: record.number,
                                          group: ExpectedGroup(id: $0.id, name: $0.name, time: $0.time)) }))
        case .failure(let error):
            show(.init(
                summary: direction == .undo ? "Nothing undone" : "Nothing redone",
                body: Self.markup(Self.notice(of: error, on: record)),
                icon: direction == .undo ? "edit-undo" : "edit-redo",
                timeoutMilliseconds: Self.errorMilliseconds, urgency: 1))
        }
    }

    /// What a notification says of a refusal: the user's words where the
    /// protocol's sentence speaks to the app's developer ("push a change
    /// first"), else that sentence.
    static func notice(of error: ServiceError, on record: StackRecord?) -> String {
        switch (error, record) {
        case (.model(.nothingToUndo), let record?): "There is nothing to undo in \(record.title)."
        case (.model(.nothingToRedo), let record?): "There is nothing to redo in \(record.title)."
        default: error.refusal(stack: record?.displayName).sentence
        }
    }

    /// `text` safe in a notification body, which servers may read as markup
    /// (a title an application chose must not become a link or an image).
    static func markup(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
