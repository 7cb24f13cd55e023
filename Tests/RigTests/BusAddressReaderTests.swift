#if canImport(Glibc)
import Glibc
#endif
import Rig
import Testing

/// Waiting for a starting bus's address: the deadline fires even when the
/// bus prints nothing and keeps its end open.
@Suite struct BusAddressReaderTests {
    /// A pipe whose write end the test holds; both ends closed at the end.
    final class TestPipe {
        let read: Int32
        let write: Int32
        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            read = ends[0]
            write = ends[1]
        }
        func say(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
        }
        deinit {
            close(read)
            close(write)
        }
    }

    @Test func theFirstLineIsTheAddress() throws {
        let pipe = try TestPipe()
        pipe.say("unix:path=/tmp/bus,guid=0123\nmore\n")
        #expect(try BusAddressReader.read(from: pipe.read, within: 5_000) == "unix:path=/tmp/bus,guid=0123")
    }

    @Test func silenceWithTheWriterStillOpenEndsAtTheDeadline() throws {
        let pipe = try TestPipe()
        let error = #expect(throws: RigError.self) { try BusAddressReader.read(from: pipe.read, within: 200) }
        #expect(error?.description.contains("within 200 ms (it printed nothing)") == true)
    }

    @Test func somethingElseThanAnAddressIsRefused() throws {
        let pipe = try TestPipe()
        pipe.say("Failed to start message bus\n")
        let error = #expect(throws: RigError.self) { try BusAddressReader.read(from: pipe.read, within: 5_000) }
        #expect(error?.description.contains("Failed to start message bus") == true)
    }
}
