/// What one command line changed: its steps, in order, and the folders
/// whose time it changed. One group on the shell's stack holds it as its
/// payload (`payload`), undone and redone by `StepReplay`.
public struct RecordedChange: Sendable, Equatable {
    /// The steps, in the order they were done.
    public var steps: [FileStep]
    /// The folders whose modification time the steps changed.
    public var folders: [FolderTime]

    /// A change of these steps and folders.
    public init(steps: [FileStep] = [], folders: [FolderTime] = []) {
        self.steps = steps
        self.folders = folders
    }
}
