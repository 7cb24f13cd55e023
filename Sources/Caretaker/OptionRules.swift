import Undo1
import UndoCore

/// What undod accepts in `Register`'s options and a push's hints beyond
/// their types (which `Undo1` checks as the Bus layer decodes them): bounded
/// strings, no control characters in names people read, bounded window
/// lists of 32-bit ids. Every refusal is `InvalidArgs` with a sentence.
enum OptionRules {
    /// The longest string option or hint accepted, in UTF-8 bytes: names
    /// and tags are short, and a client must not grow undod without bound.
    static let maximumLength = 4_096
    /// The most window ids one `Register` may declare.
    static let maximumWindows = 4_096

    /// Checks `Register`'s options.
    static func check(_ options: RegistrationOptions) throws(ServiceError) {
        for (key, value) in [("title", options.title), ("document", options.document), ("state_tag", options.stateTag)] {
            try checkLength(key, value)
        }
        for (key, value) in [("title", options.title), ("document", options.document)] {
            if let value, value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw .invalidArgs("The option \(key) must not contain control characters")
            }
        }
        if let ids = options.windows {
            guard ids.count <= maximumWindows else {
                throw .invalidArgs("The option windows may name at most \(maximumWindows) windows, not \(ids.count)")
            }
            if let tooLarge = ids.first(where: { $0 > UInt64(UInt32.max) }) {
                throw .invalidArgs("The option windows holds \(tooLarge), which is no X11 window id (they fit 32 bits)")
            }
        }
    }

    /// Checks a push's hints.
    static func check(_ hints: PushHints) throws(ServiceError) {
        try checkLength("merge_key", hints.mergeKey)
        try checkLength("state_tag", hints.stateTag)
    }

    private static func checkLength(_ key: String, _ value: String?) throws(ServiceError) {
        if let value, value.utf8.count > maximumLength {
            throw .invalidArgs("The option \(key) must be at most \(maximumLength) bytes")
        }
    }
}

extension RegistrationOptions {
    /// Whether any option other than `document` was given ("Register again
    /// with options" is a mutation).
    var changesSomething: Bool {
        title != nil || limit != nil || maxBytes != nil || persist != nil || globalTrigger != nil || stateTag != nil
            || windows != nil || process != nil
    }

    /// The declared windows as X11 ids (checked to fit 32 bits).
    var windowIDs: Set<UInt32>? {
        windows.map { Set($0.map { UInt32(truncatingIfNeeded: $0) }) }
    }
}
