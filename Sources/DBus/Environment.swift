#if canImport(Glibc)
import Glibc
#endif

/// The process environment, read without Foundation.
public enum Environment {
    /// The value of the variable `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
