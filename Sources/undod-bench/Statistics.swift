/// The median, least and greatest of a set of figures: how every ratio is
/// reported, one figure per round.
struct Summary: Sendable {
    /// The middle figure (the mean of the two middle ones for an even count).
    let median: Double
    /// The least.
    let min: Double
    /// The greatest.
    let max: Double
    /// How many figures.
    let count: Int

    /// Summarises `values` (at least one).
    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        median = Self.median(ofSorted: sorted)
    }

    /// One figure.
    init(single value: Double) {
        self.init([value])
    }

    /// The median of already sorted figures.
    static func median(ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of durations in nanoseconds, in microseconds.
    static func medianMicroseconds(_ nanoseconds: [Int64]) -> Double {
        median(ofSorted: nanoseconds.map { Double($0) / 1_000 }.sorted())
    }

    /// The duration (nanoseconds in, microseconds out) that `fraction` of
    /// `nanoseconds` do not exceed (nearest rank; 1 is the slowest).
    static func quantileMicroseconds(_ nanoseconds: [Int64], _ fraction: Double) -> Double {
        guard !nanoseconds.isEmpty else { return .nan }
        let sorted = nanoseconds.sorted()
        let rank = Swift.max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
        return Double(sorted[Swift.min(rank, sorted.count) - 1]) / 1_000
    }
}

/// Runs the two sides of a ratio in alternating order, round after round
/// (A B, B A, A B, …), so that drift on a shared machine falls on both.
enum Rounds {
    /// The figures of each side, one per round.
    static func interleave(_ rounds: Int, _ a: () throws(BenchError) -> Double,
                           _ b: () throws(BenchError) -> Double) throws(BenchError) -> (a: [Double], b: [Double]) {
        var first: [Double] = []
        var second: [Double] = []
        for round in 0..<rounds {
            if round % 2 == 0 {
                first.append(try a())
                second.append(try b())
            } else {
                second.append(try b())
                first.append(try a())
            }
        }
        return (first, second)
    }

    /// `rounds` rounds of `round` on each of `sides` in turn (undod's
    /// setup, then the floor service's beside it), the order reversed every
    /// other round as `interleave` does; one pair of figures for each side
    /// a round. What the machine does over seconds lands on every side alike.
    static func alternate<Side>(_ rounds: Int, _ sides: [Side],
                                _ round: (Side) throws(BenchError) -> (a: Double, b: Double))
        throws(BenchError) -> [(a: [Double], b: [Double])] {
        var figures = Array(repeating: (a: [Double](), b: [Double]()), count: sides.count)
        for number in 0..<rounds {
            let order = number % 2 == 0 ? Array(sides.indices) : sides.indices.reversed()
            for index in order {
                let (a, b) = try round(sides[index])
                figures[index].a.append(a)
                figures[index].b.append(b)
            }
        }
        return figures
    }
}
