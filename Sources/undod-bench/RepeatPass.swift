/// Rows 1–3 measured a second time under another condition (one subscriber
/// watching, the floor service in undod's place), each figure noted under
/// the row it repeats: one way to measure again and one way to note, for
/// every such pass.
struct RepeatPass {
    /// The rows this measures again.
    let busRows: BusRows
    /// The run this measures in.
    var bench: Bench { busRows.bench }

    /// The indices of rows 1–3 that were measured, and so can be measured
    /// again (or, `measuredOrNot`, that are to be measured).
    static func repeatable(_ rows: [Row], measuredOrNot: Bool = false) -> [Int] {
        rows.indices.filter { (1...3).contains(rows[$0].number) && (measuredOrNot || rows[$0].summary != nil) }
    }

    /// What a pass needs before it measures anything again (`make`), or
    /// nil, with "`label`: not measured (why)" under each row of `indices`,
    /// when the time budget is spent (`budget` names the pass) or `make` fails.
    func prepareAgain<Made>(_ label: String, budget: String, _ rows: inout [Row], _ indices: [Int],
                            _ make: () throws(BenchError) -> Made) -> Made? {
        do {
            try bench.checkBudget(budget)
            return try make()
        } catch {
            for index in indices { rows[index].detail += "\n   \(label): not measured (\(error.description))" }
            return nil
        }
    }

    /// Measures `row` (1, 2 or 3) again on `setup`: its round trips, its
    /// pipelined calls (row 8's CPU figures going to `cpu`), or its trigger.
    func measureAgain(_ row: inout Row, _ setup: BusRows.Setup, cpu: inout Row?) throws(BenchError) {
        switch row.number {
        case 1: try busRows.measureLatency(&row, setup)
        case 2: try busRows.measureThroughput(&row, setup, cpu: &cpu)
        default: try busRows.measureTrigger(&row, setup)
        }
    }

    /// `measured`'s median, least and greatest as a line under `row` after
    /// `label`, and its median as `row`'s `key` value (in `--json`).
    static func note(_ measured: Row, as label: String, key: String, under row: inout Row) {
        guard let summary = measured.summary else { return }
        let digits = measured.digits
        row.detail += "\n   \(label): \(Report.format(summary.median, digits: digits)) \(measured.unit) "
            + "(min \(Report.format(summary.min, digits: digits)), max \(Report.format(summary.max, digits: digits)))"
        row.values.append((key, summary.median))
    }
}
