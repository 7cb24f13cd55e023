// undod-bench: how close undod sits to the bus floor. See BENCHMARKS.md.
#if canImport(Glibc)
import Glibc
#endif

exit(BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
