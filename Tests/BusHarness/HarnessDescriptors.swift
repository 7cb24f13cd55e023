public import Foundation

/// Closes the harness's ends of a child's pipes and files as soon as they
/// are done with. Foundation releases a `Process` (and the pipes it holds)
/// only once it has noticed the child's end, which a child started in the
/// same instant can delay until it ends too (see `ExitWatch`); meanwhile the
/// descriptors stay open. A full run used to climb past 2,600 of them, and
/// with more than about 1,300 Foundation's `Process.run` reads past the end
/// of its `/proc/self/fd` buffer (it copies each entry's whole 256-byte
/// name), which crashed a run when that buffer ended a heap's mapped part.
public func closeHarnessDescriptors(_ handles: [FileHandle]) {
    for handle in handles { try? handle.close() }
}
