import BusHarness
@testable import DBus
import Foundation
import Glibc
import Locking
import Loop
import Testing

/// The authentication exchange against a real bus and against a listener
/// that answers as we tell it: sent in one go, every address entry tried,
/// the answer to `NEGOTIATE_UNIX_FD` read.
@Suite struct AuthenticationTests {
    @Test func aRealBusAgreesToPassFDs() throws {
        let bus = try TestBus()
        let socket = try BusSocket.open(address: bus.address, timeoutMilliseconds: TestTime.milliseconds(10_000))
        #expect(socket.unixFDsAgreed)
    }

    /// A listener that refuses us comes first in the address: the bus after
    /// it is reached, and the connection works. The listener got all three
    /// commands before it said a word (they were sent in one go).
    @Test func anEntryThatRefusesUsIsPassedOverForTheNext() throws {
        let bus = try TestBus()
        let refusing = try SASLListener(answer: "REJECTED EXTERNAL\r\n")
        let connection = try Connection(address: "unix:path=\(refusing.path);\(bus.address)", loop: EventLoop())
        #expect(connection.uniqueName.hasPrefix(":"))
        let heard = refusing.heard()
        #expect(heard.hasPrefix("\0AUTH EXTERNAL ") && heard.hasSuffix("\r\nNEGOTIATE_UNIX_FD\r\nBEGIN\r\n"),
                "\(heard.debugDescription)")
        connection.close()
    }

    @Test(arguments: [
        ("OK 0123456789abcdef0123456789abcdef\r\nERROR\r\n", nil),
        ("OK 0123456789abcdef0123456789abcdef\r\nAGREE_UNIX_FD\r\n", nil),
        ("REJECTED EXTERNAL\r\n", "the bus answered “REJECTED EXTERNAL”"),
        ("OK 0123456789abcdef0123456789abcdef\r\nNONSENSE\r\n", "“NONSENSE” to NEGOTIATE_UNIX_FD"),
        ("OK 0123456789abcdef0123456789abcdef\r\nAGREE_UNIX_FD\r\nl\u{1}", "spoke before our Hello"),
        ("", "closed the connection"),
    ] as [(String, String?)])
    func theAnswersAreReadAndChecked(answer: String, refusal: String?) throws {
        let listener = try SASLListener(answer: answer)
        do {
            let socket = try BusSocket.open(address: "unix:path=\(listener.path)",
                                            timeoutMilliseconds: TestTime.milliseconds(10_000))
            #expect(refusal == nil, "accepted \(answer.debugDescription)")
            #expect(socket.unixFDsAgreed == answer.contains("AGREE_UNIX_FD"))
        } catch {
            #expect(error.name == DBusError.Names.authFailed, "\(error.message)")
            #expect(error.message.contains(refusal ?? "(accepted)"), "\(error.message)")
        }
    }
}

/// A Unix socket that takes one connection, reads the client's side of the
/// exchange up to `BEGIN`, then answers what it was given and waits for
/// the client to hang up.
private final class SASLListener: Sendable {
    let path: String
    private let listening: ListeningSocket
    private let received = Lock<[UInt8]>([])

    init(answer: String) throws {
        listening = try ListeningSocket(named: "socket", inDirectoryStartingWith: "sasl-")
        path = listening.path
        let received = received, listening = listening
        Thread {
            let client = listening.acceptConnection()
            var heard: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while !heard.suffix(7).elementsEqual("BEGIN\r\n".utf8) {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { break }
                heard += buffer[..<count]
            }
            received.withLock { $0 = heard }
            _ = Array(answer.utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            // Until the client hangs up (at once, given no answer).
            while !answer.isEmpty, read(client, &buffer, buffer.count) > 0 {}
            Glibc.close(client)
        }.start()
    }

    /// What the client sent, up to and with `BEGIN`.
    func heard() -> String {
        String(decoding: received.withLock { $0 }, as: UTF8.self)
    }
}
