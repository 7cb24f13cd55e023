// undoctl: the command line of undod. Everything lives in `Undoctl`.
#if canImport(Glibc)
import Glibc
#endif

exit(Undoctl.main(Array(CommandLine.arguments.dropFirst())))
