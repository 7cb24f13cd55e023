#if canImport(Glibc)
import Glibc
#endif
import Rig

/// A private `dbus-daemon` for the run, on a socket in the scratch
/// directory: never the user's bus.
final class PrivateBus {
    /// The address clients connect to.
    let address: String
    private let process: ChildProcess
    /// The bus daemon's process id.
    var pid: pid_t { process.pid }

    /// Starts the bus and waits (at most 10 s) for it to print its address.
    init(scratch: Scratch, executable: String) throws(BenchError) {
        let socketDirectory = try scratch.directory("bus")
        let config = try scratch.write("bus.conf", PrivateBusConfig.text(socketDirectory: socketDirectory))
        let output = try RunGuard.pipe()
        do {
            process = try ChildProcess(
                path: executable, arguments: PrivateBusConfig.daemonArguments(configPath: config),
                name: "dbus-daemon", stdout: output.write)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        close(output.write)
        defer { close(output.read) }
        do {
            address = try BusAddressReader.read(from: output.read, within: 10_000)
        } catch {
            process.kill()
            throw BenchError("\(executable): \(error.description)")
        }
    }

    /// Stops the bus.
    func stop() {
        process.kill()
    }
}
