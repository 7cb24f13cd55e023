public import FileTrash
public import JSONText
public import SystemCalls

/// A command's change as the payload undod keeps for its group: one JSON
/// object, `{"folders":[…],"steps":[…],"version":1}`, each step an object
/// of one key (`trashed`, `moved`, `created`, `retimed`, `remoded`).
/// undod keeps it as bytes and never reads it; undod-files reads it back
/// when the group is undone or redone.
extension RecordedChange {
    /// The payload version this build writes and reads.
    public static let payloadVersion: Int64 = 1

    /// The change as a payload.
    public var payload: [UInt8] {
        let document = JSONValue.object([
            "version": .int(Self.payloadVersion), "steps": .array(steps.map(\.json)),
            "folders": .array(folders.map { folder in
                .object(["path": .string(folder.path), "before": .int(folder.before), "after": .int(folder.after)]
                    .merging(FileStep.json(folder.identity)) { $1 })
            }),
        ])
        return Array(document.text.utf8)
    }

    /// The change a payload holds; nil where it is not one this build wrote.
    public init?(payload: [UInt8]) {
        guard let document = try? JSONValue(parsing: payload), document["version"]?.intValue == Self.payloadVersion,
              let steps = document["steps"]?.elements, let folders = document["folders"]?.elements else { return nil }
        self.init()
        for step in steps {
            guard let one = FileStep(json: step) else { return nil }
            self.steps.append(one)
        }
        for folder in folders {
            guard let path = folder["path"]?.stringValue, let before = folder["before"]?.intValue,
                  let after = folder["after"]?.intValue, let identity = FileStep.identity(folder) else { return nil }
            self.folders.append(FolderTime(path: path, identity: identity, before: before, after: after))
        }
    }
}

extension FileStep {
    var json: JSONValue {
        switch self {
        case .trashed(let entry):
            return .object(["trashed": .object([
                "directory": .string(entry.directory), "name": .string(entry.name),
                "original": .string(entry.originalPath), "token": .string(entry.token),
                "directoryItem": .bool(entry.isDirectory),
            ].merging(Self.json(entry.identity)) { $1 })])
        case .moved(let from, let to, let identity):
            return .object(["moved": .object(["from": .string(from), "to": .string(to)]
                .merging(Self.json(identity)) { $1 })])
        case .created(let path, let identity, let item, let token, let trash):
            var fields: [String: JSONValue] = ["path": .string(path), "token": .string(token), "trash": .string(trash)]
            switch item {
            case .file(let size, let modified):
                fields["size"] = .uint(size)
                fields["modified"] = .int(modified)
            case .emptyFolder: break
            case .tree(let digest): fields["tree"] = .uint(digest)
            case .name: fields["name"] = .bool(true)
            }
            return .object(["created": .object(fields.merging(Self.json(identity)) { $1 })])
        case .remoded(let path, let identity, let before, let after):
            return .object(["remoded": .object([
                "path": .string(path), "before": .uint(UInt64(before)), "after": .uint(UInt64(after)),
            ].merging(Self.json(identity)) { $1 })])
        case .retimed(let path, let identity, let before, let after):
            return .object(["retimed": .object([
                "path": .string(path), "beforeAccess": .int(before.access), "beforeModification": .int(before.modification),
                "afterAccess": .int(after.access), "afterModification": .int(after.modification),
            ].merging(Self.json(identity)) { $1 })])
        }
    }

    init?(json: JSONValue) {
        if let fields = json["trashed"] {
            guard let directory = fields["directory"]?.stringValue, let name = fields["name"]?.stringValue,
                  let original = fields["original"]?.stringValue, let token = fields["token"]?.stringValue,
                  let isDirectory = fields["directoryItem"]?.boolValue, let identity = Self.identity(fields)
            else { return nil }
            self = .trashed(TrashEntry(directory: directory, name: name, originalPath: original, identity: identity,
                                       token: token, isDirectory: isDirectory))
        } else if let fields = json["moved"] {
            guard let from = fields["from"]?.stringValue, let to = fields["to"]?.stringValue,
                  let identity = Self.identity(fields) else { return nil }
            self = .moved(from: from, to: to, identity: identity)
        } else if let fields = json["created"] {
            guard let path = fields["path"]?.stringValue, let token = fields["token"]?.stringValue,
                  let trash = fields["trash"]?.stringValue, let identity = Self.identity(fields) else { return nil }
            let item: MadeItem
            if let size = fields["size"].flatMap(Self.unsigned), let modified = fields["modified"]?.intValue {
                item = .file(size: size, modified: modified)
            } else if let digest = fields["tree"].flatMap(Self.unsigned) {
                item = .tree(digest: digest)
            } else if fields["name"]?.boolValue == true {
                item = .name
            } else {
                item = .emptyFolder
            }
            self = .created(path: path, identity: identity, item: item, token: token, trash: trash)
        } else if let fields = json["remoded"] {
            guard let path = fields["path"]?.stringValue, let identity = Self.identity(fields),
                  let before = fields["before"].flatMap(Self.unsigned).flatMap(UInt32.init(exactly:)),
                  let after = fields["after"].flatMap(Self.unsigned).flatMap(UInt32.init(exactly:)) else { return nil }
            self = .remoded(path: path, identity: identity, before: before, after: after)
        } else if let fields = json["retimed"] {
            guard let path = fields["path"]?.stringValue, let identity = Self.identity(fields),
                  let beforeAccess = fields["beforeAccess"]?.intValue,
                  let beforeModification = fields["beforeModification"]?.intValue,
                  let afterAccess = fields["afterAccess"]?.intValue,
                  let afterModification = fields["afterModification"]?.intValue else { return nil }
            self = .retimed(path: path, identity: identity,
                            before: FileTimes(access: beforeAccess, modification: beforeModification),
                            after: FileTimes(access: afterAccess, modification: afterModification))
        } else {
            return nil
        }
    }

    static func json(_ identity: FileIdentity) -> [String: JSONValue] {
        ["device": .uint(identity.device), "inode": .uint(identity.inode), "birth": .int(identity.birth)]
    }

    static func identity(_ fields: JSONValue) -> FileIdentity? {
        guard let device = fields["device"].flatMap(unsigned), let inode = fields["inode"].flatMap(unsigned),
              let birth = fields["birth"]?.intValue else { return nil }
        return FileIdentity(device: device, inode: inode, birth: birth)
    }

    private static func unsigned(_ value: JSONValue) -> UInt64? {
        switch value {
        case .uint(let number): number
        case .int(let number): UInt64(exactly: number)
        default: nil
        }
    }
}
