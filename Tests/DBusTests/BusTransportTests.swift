import BusHarness
@testable import DBus
import Foundation
import Glibc
import Locking
import Loop
import Testing

/// The connection's own socket: which addresses it reaches, how the byte
/// stream is cut into messages, and what it answers by itself.
@Suite struct BusTransportTests {
    @Test func addressesNameUnixSocketsOnly() throws {
        #expect(try BusAddress.unixSockets(in: "unix:path=/tmp/a%20b;tcp:host=x,port=1")
            == [.init(name: "/tmp/a b", isAbstract: false)])
        #expect(try BusAddress.unixSockets(in: "unix:abstract=/tmp/dbus-x,guid=0123")
            == [.init(name: "/tmp/dbus-x", isAbstract: true)])
        for address in ["tcp:host=localhost,port=4000", "nonsense"] {
            #expect {
                try BusAddress.unixSockets(in: address)
            } throws: { error in
                (error as? DBusError)?.name == DBusError.Names.badAddress
            }
        }
        let tcp = try? BusAddress.unixSockets(in: "tcp:host=localhost,port=4000")
        #expect(tcp == nil)
        do {
            _ = try BusAddress.unixSockets(in: "tcp:host=localhost,port=4000")
        } catch {
            #expect(error.message.contains("unix:path=") && error.message.contains("it names tcp."))
        }
    }

    @Test func connectingWhereNothingListensIsNoServer() {
        let loop = EventLoop()
        do {
            _ = try Connection(address: "unix:path=/nonexistent/undod-test/bus", loop: loop)
            Issue.record("connected to nothing")
        } catch {
            #expect(error.name == DBusError.Names.noServer)
            #expect(error.message.contains("/nonexistent/undod-test/bus"))
        }
    }

    /// Messages of every size the reader treats apart — in the shared
    /// buffer, in memory of their own, in the lent large buffer (twice, so
    /// the second reuses it) — written in pieces that split them anywhere.
    @Test(arguments: [1_021, 4_093, 65_536, 300_000])
    func theReaderCutsTheStreamIntoTheMessagesSent(piece: Int) throws {
        let sizes = [0, 100, 70_000, 1_500_000, 10, 1_200_000]
        let messages = sizes.enumerated().map { index, size in
            WireEncoder.bytes(serial: UInt32(index + 1), fields: .init(path: "/p", member: "M"),
                                arguments: [.bytes((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })],
                                bodyBytes: size + 4)
        }
        let stream = messages.flatMap { $0 }
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let socket = BusSocket(adopting: ends[0])
        defer { _ = close(ends[1]) }
        let reader = MessageReader()
        var received: [[UInt8]] = []
        var sent = 0
        while received.count < messages.count {
            if sent < stream.count {
                let count = min(piece, stream.count - sent, 100_000)
                let written = stream[sent..<(sent + count)].withUnsafeBytes { write(ends[1], $0.baseAddress, count) }
                try #require(written > 0)
                sent += written
            }
            while case .moved = reader.read(from: socket) {}
            while let bytes = try reader.next() { received.append(withExtendedLifetime(bytes) { Array(bytes.bytes) }) }
            try #require(sent < stream.count || received.count == messages.count || reader.holdsPartOfAMessage)
        }
        #expect(received == messages)
        #expect(!reader.holdsPartOfAMessage)
    }

    @Test func bytesThatAreNotDBusEndTheStream() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let socket = BusSocket(adopting: ends[0])
        defer { _ = close(ends[1]) }
        let garbage = [UInt8](repeating: 0x5A, count: 32)
        #expect(garbage.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 32)
        let reader = MessageReader()
        _ = reader.read(from: socket)
        #expect(throws: DBusError.self) { try reader.next() }
    }

    @Test func peerIsAnsweredOnEveryPath() throws {
        let f = try Fixture()
        let peer = StandardInterface.peer
        for path in ["/", "/not/exported"] {
            #expect(try f.call(path, peer, "Ping") == [])
            let id = try f.call(path, peer, "GetMachineId").first?.string ?? ""
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        }
        let unknown = errorOf { () throws(DBusError) in try f.call("/", peer, "Pong") }
        #expect(unknown?.name == DBusError.Names.unknownMethod)
        #expect(unknown?.message.contains("Ping and GetMachineId") == true)
    }

    /// Far more calls than one turn routes (256) arrive back to back, and
    /// every one is answered: the batches left for later turns are routed
    /// and their answers (`Peer`'s, made while routing) written without
    /// anything else waking the server's loop — the client runs on a thread
    /// and loop of its own.
    @Test func thousandsOfPipelinedCallsAreAllAnswered() throws {
        let f = try Fixture()
        let server = f.server.uniqueName
        let address = f.bus.address
        let answered = Lock<Int?>(nil)
        let wake = f.loop.handle
        let client = Thread {
            let loop = EventLoop()
            guard let connection = try? Connection(address: address, loop: loop) else {
                answered.withLock { $0 = -1 }
                wake.perform {}
                return
            }
            var count = 0
            for _ in 0..<3_000 {
                guard let ping = try? Message.methodCall(destination: server, path: "/", interface: StandardInterface.peer,
                                                         member: "Ping") else { continue }
                connection.call(ping, timeoutMilliseconds: 20_000) { if case .success = $0 { count += 1 } }
            }
            loop.run(until: { count == 3_000 }, timeoutMilliseconds: TestTime.milliseconds(10_000))
            connection.close()
            answered.withLock { $0 = count }
            wake.perform {}
        }
        client.start()
        #expect(f.wait(timeout: 15_000) { answered.withLock { $0 } != nil })
        #expect(answered.withLock { $0 } == 3_000)
    }

    /// A call of any member is read in place from the bytes it came in: one
    /// over a MiB from memory lent for it, one of 70 KiB from memory of its
    /// own. Both answer exactly what was sent.
    @Test(arguments: [70_000, 2_500_000])
    func aLargeCallOfAnyKindArrivesWhole(size: Int) throws {
        let f = try Fixture()
        f.objects.export(path: "/echo", interfaces: [
            Interface("test.Echo", methods: [
                .init("Sizes", inputs: [.init("text", "s"), .init("bytes", "ay"), .init("options", "a{sv}")],
                      outputs: [.init("text", "u"), .init("sum", "u"), .init("options", "a{sv}"),
                                .init("bytes", "ay")]) { call in
                    let text = call.arguments[0].string ?? ""
                    let sum = call.arguments[1].bytes?.reduce(UInt32(0)) { $0 &+ UInt32($1) } ?? 0
                    call.reply([.uint32(UInt32(text.utf8.count)), .uint32(sum), call.arguments[2], call.arguments[1]])
                },
            ]),
        ])
        let text = String(repeating: "é", count: size / 2)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
        let options = DBusValue.vardict(["k": .string("v")])
        let answer = try f.call("/echo", "test.Echo", "Sizes", [.string(text), .bytes(bytes), options],
                                timeout: 20_000)
        // The large answer is written in pieces as the socket takes them.
        #expect(answer == [.uint32(UInt32(text.utf8.count)),
                           .uint32(bytes.reduce(UInt32(0)) { $0 &+ UInt32($1) }), options, .bytes(bytes)])
    }

    /// The bus going away fails every call awaiting a reply with
    /// `Disconnected`, tells `onDisconnect` once, and later calls fail at once.
    @Test func theBusGoingAwayFailsWhatWaitsAndSaysSoOnce() throws {
        let f = try Fixture()
        f.objects.export(path: "/silent", interfaces: [
            Interface("test.Silent", methods: [.init("Never") { _ in }]),
        ])
        var told = 0
        f.client.onDisconnect = { told += 1 }
        var results: [Result<Message, DBusError>] = []
        for _ in 0..<2 {
            let call = try Message.methodCall(destination: f.server.uniqueName, path: "/silent",
                                              interface: "test.Silent", member: "Never")
            f.client.call(call, timeoutMilliseconds: 60_000) { results.append($0) }
        }
        // Both calls are written before the bus goes.
        f.client.flush()
        f.bus.stop()
        #expect(f.wait { results.count == 2 && told == 1 })
        for result in results {
            guard case .failure(let error) = result else { Issue.record("a call succeeded"); continue }
            #expect(error.name == DBusError.Names.disconnected)
        }
        #expect(!f.client.isConnected)
        var late: Result<Message, DBusError>?
        f.client.call(try Message.methodCall(destination: "org.freedesktop.DBus", path: "/", interface: nil,
                                             member: "Ping"), timeoutMilliseconds: 1_000) { late = $0 }
        #expect(f.wait { late != nil })
        if case .failure(let error)? = late { #expect(error.name == DBusError.Names.disconnected) }
        f.loop.run(until: { false }, timeoutMilliseconds: 50)
        #expect(told == 1)
    }
}
