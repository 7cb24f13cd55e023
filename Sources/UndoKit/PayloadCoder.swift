import DBus
import Foundation

/// Payloads as `Codable` values: an app describes each edit and its inverse
/// as a small value of its own (`enum Edit: Codable`), and UndoKit carries
/// them as JSON, which undod never reads.
extension UndoAction {
    /// An action whose payloads are `undo` and `redo`, as JSON.
    public init<Undo: Encodable, Redo: Encodable>(encoding undo: Undo, redo: Redo) throws(UndoKitError) {
        self.init(undo: try PayloadCoder.encode(undo), redo: try PayloadCoder.encode(redo))
    }
}

extension ApplyRequest {
    /// The payloads decoded as `type`, in the order to apply them; throws
    /// `obsolete` when one cannot be read (an older app wrote it, say), so
    /// that undod drops the group instead of retrying it for ever.
    public func decode<Payload: Decodable>(_ type: Payload.Type) throws(UndoKitError) -> [Payload] {
        var decoded: [Payload] = []
        for payload in payloads { decoded.append(try PayloadCoder.decode(type, from: payload)) }
        return decoded
    }
}

/// JSON in and out of payload bytes, with errors UndoKit can answer.
enum PayloadCoder {
    static func encode<Value: Encodable>(_ value: Value) throws(UndoKitError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            throw UndoKitError(name: DBusError.Names.invalidArgs, message: "The payload could not be encoded: \(error).")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(UndoKitError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw UndoKitError(name: UndoKitError.obsolete.name, message: "A payload could not be read: \(error).")
        }
    }
}
