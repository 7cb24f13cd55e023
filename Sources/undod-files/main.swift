#if canImport(Glibc)
import Glibc
#endif

exit(FilesMain.main(Array(CommandLine.arguments.dropFirst())))
