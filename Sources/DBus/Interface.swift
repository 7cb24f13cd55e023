/// One D-Bus interface as an exported object implements it: its methods
/// (with their handlers), signals and properties (with their getters).
///
/// The same declarations dispatch calls, check signatures, answer
/// `Properties` and generate `Introspect`: there is one source of truth.
public struct Interface {
    /// The interface name, for example `org.undod.Undo1.Stack`.
    public var name: String
    /// What the interface is for (a doc annotation in the introspection).
    public var doc: String
    /// The methods.
    public var methods: [Method]
    /// The signals.
    public var signals: [Signal]
    /// The properties.
    public var properties: [Property]

    /// Declares an interface.
    public init(_ name: String, doc: String = "", methods: [Method] = [], signals: [Signal] = [],
                properties: [Property] = []) {
        self.name = name
        self.doc = doc
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    /// A named, typed argument of a method or signal.
    public struct Argument: Sendable, Equatable {
        /// The argument's name as introspection shows it.
        public var name: String
        /// Its complete D-Bus type.
        public var signature: String
        /// What it means, for introspection (`org.gtk.GDBus.DocString`), or "".
        public var doc: String
        /// Declares an argument.
        public init(_ name: String, _ signature: String, doc: String = "") {
            self.name = name
            self.signature = signature
            self.doc = doc
        }
    }

    /// A method and the handler that serves it.
    public struct Method {
        /// The member name.
        public var name: String
        /// The arguments the caller sends.
        public var inputs: [Argument] { didSet { inputSignature = Self.signature(of: inputs) } }
        /// The arguments the reply carries.
        public var outputs: [Argument]
        /// What the method does.
        public var doc: String
        /// Serves one call; it must answer the call, now or later.
        public var handler: (MethodCall) -> Void
        /// Whether the handler reads the arguments in place itself
        /// (`MethodCall.argument(_:)`, `packedByteArrays`) and answers
        /// `InvalidArgs` for what it cannot read: for a method whose calls
        /// may be huge, which are then never decoded into values. For every
        /// other method `ObjectServer` reads them all before the handler
        /// runs, and answers `InvalidArgs` itself if they do not read.
        public var readsArgumentsInPlace = false
        /// The work this method does off the loop for a large call before
        /// serving it (`prepared(_:with:then:)`); nil for most.
        var preparation: ((MethodCall, _ ready: @escaping (_ serve: @escaping () -> Void) -> Void) -> Bool)?

        /// Declares a method.
        public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], doc: String = "",
                    handler: @escaping (MethodCall) -> Void) {
            self.name = name
            self.inputs = inputs
            self.inputSignature = Self.signature(of: inputs)
            self.outputs = outputs
            self.doc = doc
            self.handler = handler
        }

        /// The signature a call must carry (kept with `inputs`: every call is checked against it).
        public private(set) var inputSignature: String
        /// Other signatures a call may carry instead, for a caller that
        /// cannot choose its integer types (KWin's script engine sends every
        /// whole number as `i`); the handler reads either. Empty for most.
        public var alsoAccepted: Set<String> = []

        /// Whether a call carrying `signature` may be served.
        public func accepts(_ signature: String) -> Bool {
            signature == inputSignature || alsoAccepted.contains(signature)
        }

        private static func signature(of arguments: [Argument]) -> String {
            arguments.map(\.signature).joined()
        }
    }

    /// A signal the object emits.
    public struct Signal: Sendable {
        /// The member name.
        public var name: String
        /// Its arguments.
        public var arguments: [Argument]
        /// What it announces.
        public var doc: String
        /// Declares a signal.
        public init(_ name: String, arguments: [Argument] = [], doc: String = "") {
            self.name = name
            self.arguments = arguments
            self.doc = doc
        }
    }

    /// A read-only property and its getter.
    public struct Property {
        /// The property name.
        public var name: String
        /// Its complete D-Bus type.
        public var signature: String
        /// What it means.
        public var doc: String
        /// Reads the present value.
        public var get: () -> DBusValue

        /// Declares a read-only property.
        public init(_ name: String, _ signature: String, doc: String = "", get: @escaping () -> DBusValue) {
            self.name = name
            self.signature = signature
            self.doc = doc
            self.get = get
        }
    }
}

extension Interface {
    /// This declaration with handlers and getters attached by name: how one
    /// table of declarations (for introspection and the shipped XML) serves
    /// live objects. A method left unbound answers `UnknownMethod`; a
    /// property left unbound reads as its type's empty value is not offered:
    /// bind every property.
    public func binding(methods handlers: [String: (MethodCall) -> Void],
                        properties getters: [String: () -> DBusValue]) -> Interface {
        // A key that names nothing declared is a typo that would leave a
        // method answering UnknownMethod: caught in every debug build.
        assert(Set(handlers.keys).isSubset(of: methods.map(\.name)),
               "\(name): handlers for undeclared methods \(Set(handlers.keys).subtracting(methods.map(\.name)))")
        assert(Set(getters.keys).isSubset(of: properties.map(\.name)),
               "\(name): getters for undeclared properties \(Set(getters.keys).subtracting(properties.map(\.name)))")
        var bound = self
        bound.methods = methods.map { method in
            var method = method
            if let handler = handlers[method.name] { method.handler = handler }
            return method
        }
        bound.properties = properties.map { property in
            var property = property
            if let get = getters[property.name] { property.get = get }
            return property
        }
        return bound
    }

    /// This interface with method `name` served in two steps: a large call
    /// (`IncomingLanes.largeCallBytes` or more) is first handed to
    /// `prepare`, as soon as it is the longest waiting in its connection's
    /// lane, which may start work off the loop and answer true, then call
    /// `done` once, on the loop, with what it made; until then the call and
    /// what its sender sent after it wait, and other senders go on. Every
    /// call is then served by `serve`, with the object made (nil for a call
    /// not prepared: a small one, or one `prepare` answered false for).
    /// `prepare` must not answer the call. The method reads its arguments in
    /// place (`Method.readsArgumentsInPlace`).
    public func preparing<Prepared: AnyObject>(
        _ name: String, with prepare: @escaping (MethodCall, _ done: @escaping (Prepared?) -> Void) -> Bool,
        then serve: @escaping (MethodCall, Prepared?) -> Void
    ) -> Interface {
        assert(methods.contains { $0.name == name }, "\(self.name): no method \(name) to prepare")
        var prepared = self
        prepared.methods = methods.map { method in
            guard method.name == name else { return method }
            var method = method
            method.readsArgumentsInPlace = true
            method.handler = { serve($0, nil) }
            method.preparation = { call, ready in
                prepare(call) { made in ready { serve(call, made) } }
            }
            return method
        }
        return prepared
    }

    /// A method declaration without a handler yet (see `binding`).
    public static func declare(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                               doc: String = "") -> Method {
        Method(name, inputs: inputs, outputs: outputs, doc: doc) { call in
            call.fail(.unknownMethod("\(name) is declared but not served by this object."))
        }
    }

    /// A property declaration without a getter yet (see `binding`).
    public static func declare(property name: String, _ signature: String, doc: String = "") -> Property {
        Property(name, signature, doc: doc) { .string("") }
    }
}
