#if canImport(Glibc)
import Glibc
#endif

exit(RunMain.main(Array(CommandLine.arguments.dropFirst())))
