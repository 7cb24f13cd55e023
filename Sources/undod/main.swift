// undod: the per-user undo daemon. Parses the command line and runs.
#if canImport(Glibc)
import Glibc
#endif
import UndoDaemon

exit(DaemonCommandLine.main(Array(CommandLine.arguments.dropFirst())))
