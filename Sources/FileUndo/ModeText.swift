/// A mode as `chmod -v` writes it: `0644` and `rw-r--r--`.
enum ModeText {
    /// Four octal digits: `0644`, `4755`.
    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Nine letters: `rwxr-xr-x`, with `s`/`S` and `t`/`T` for the
    /// special bits, as `ls -l` shows them.
    static func letters(_ mode: UInt32) -> String {
        var text = ""
        for (shift, special, mark) in [(6, UInt32(0o4000), "s"), (3, UInt32(0o2000), "s"), (0, UInt32(0o1000), "t")] {
            let bits = (mode >> UInt32(shift)) & 7
            text += bits & 4 != 0 ? "r" : "-"
            text += bits & 2 != 0 ? "w" : "-"
            let execute = bits & 1 != 0
            if mode & special != 0 {
                text += execute ? mark : mark.uppercased()
            } else {
                text += execute ? "x" : "-"
            }
        }
        return text
    }
}
