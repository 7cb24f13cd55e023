/// Why a measurement could not be made, as one sentence that says what to
/// look at.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// Makes an error.
    init(_ description: String) { self.description = description }
}
