@testable import UndoDaemon
import Testing

/// How the script an interpreter runs is found in its arguments: the
/// origin of a python3 or gjs app is its script, not the interpreter.
@Suite struct InterpreterTests {
    @Test(arguments: [
        ("/usr/bin/python3.11", ["notes.py", "--flag"], Interpreter.Script.file("notes.py")),
        ("/usr/bin/python3", ["-u", "-W", "error", "/opt/app/main.py"], .file("/opt/app/main.py")),
        ("/usr/bin/python3", ["-Werror", "-X", "dev", "app.py"], .file("app.py")),
        ("/usr/bin/python3", ["-m", "http.server"], .module("http.server")),
        ("/usr/bin/python3", ["-mhttp.server"], .module("http.server")),
        ("/usr/bin/python3", ["-uc", "print(1)"], .inline("-c")),
        ("/usr/bin/python3", ["-"], .inline("-")),
        ("/usr/bin/python3", [], .none),
        ("/usr/bin/gjs-console", ["-I", "/usr/share/app", "/usr/share/app/main.js"], .file("/usr/share/app/main.js")),
        ("/usr/bin/gjs", ["--include-path=/x", "-m", "main.js"], .file("main.js")),
        ("/usr/bin/node", ["--require", "ts-node", "server.js"], .file("server.js")),
        ("/usr/bin/node", ["-e", "1"], .inline("-e")),
        ("/usr/bin/bash", ["-c", "busctl call …"], .inline("-c")),
        ("/usr/bin/bash", ["-o", "pipefail", "tool.sh"], .file("tool.sh")),
        ("/usr/bin/perl", ["--", "-weird-name.pl"], .file("-weird-name.pl")),
    ])
    func theScriptIsFoundAsTheInterpreterFindsIt(executable: String, arguments: [String],
                                                   script: Interpreter.Script) throws {
        let interpreter = try #require(Interpreter(executable: executable))
        #expect(interpreter.script(in: arguments) == script)
    }

    @Test(arguments: ["/usr/bin/gedit", "/usr/bin/shotwell", "/usr/lib/x86_64-linux-gnu/undod-files", "/usr/bin/busctl"])
    func otherProgramsRunNoScripts(executable: String) {
        #expect(Interpreter(executable: executable) == nil)
    }
}
