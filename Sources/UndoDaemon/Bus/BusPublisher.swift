import Caretaker
import DBus
import Undo1
import Undo1Wire

/// The service's stacks as D-Bus objects, and its announcements as signals:
/// `InterfacesAdded`/`Removed` on the manager's ObjectManager,
/// `PropertiesChanged`, `Pushed` and `Applied`.
final class BusPublisher: StackPublisher {
    private let objects: ObjectServer
    private let readers: SandboxedReaders
    private let pushes: PushPreparation
    /// Owners gone unheard, made with the first stack (the service is
    /// made with this publisher, so it cannot be given at first).
    private var departed: DepartedOwners?
    /// A publisher exporting through `objects`, whose stacks' history is
    /// for `readers` to allow and whose large pushes `pushes` prepares.
    init(objects: ObjectServer, readers: SandboxedReaders, pushes: PushPreparation) {
        self.objects = objects
        self.readers = readers
        self.pushes = pushes
    }

    func publish(_ record: StackRecord, of service: UndoService) {
        objects.export(path: record.path,
                       interfaces: [StackObject.interface(for: record, service: service, readers: readers,
                                                          departed: departedOwners(of: service), pushes: pushes)],
                       announce: false)
    }

    /// Who catches up with owners that left unheard, for `service`.
    func departedOwners(of service: UndoService) -> DepartedOwners {
        if let departed { return departed }
        let made = DepartedOwners(connection: objects.connection, service: service)
        departed = made
        return made
    }

    func withdraw(path: String) -> [String] {
        objects.unexport(path: path, announce: false)
    }

    func send(_ announcement: Announcement) {
        switch announcement {
        case .stackAdded(let path):
            objects.announceAdded(path: path)
        case .stackRemoved(let path, let interfaces):
            objects.announceRemoved(path: path, interfaces: interfaces)
        case .stackChanged(let path, let now, let before):
            let changed = now.changes(since: before)
            guard !changed.isEmpty else { return }
            objects.propertiesChanged(path: path, interface: Undo1.stackInterface, values: changed)
        case .pushed(let path, let signal):
            objects.emitSignal(path: path, interface: Undo1.stackInterface, member: PushedSignal.member,
                               arguments: signal.arguments)
        case .applied(let path, let signal):
            objects.emitSignal(path: path, interface: Undo1.stackInterface, member: AppliedSignal.member,
                               arguments: signal.arguments)
        case .managerChanged(let focusedStack, let focusStrategy):
            var changed: [String: DBusValue] = [:]
            if let focusedStack { changed[ManagerProperties.focusedStackName] = .objectPath(focusedStack) }
            if let focusStrategy { changed[ManagerProperties.focusStrategyName] = .string(focusStrategy) }
            objects.propertiesChanged(path: Undo1.managerPath, interface: Undo1.managerInterface, values: changed)
        }
    }
}
