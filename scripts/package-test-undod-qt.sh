#!/usr/bin/env bash
# UndodQt's packages, tested as a Qt developer meets them (part of `make test`):
#  1. `make deb-undod-qt` builds them (lintian: no errors);
#  2. they install into a fresh root (`dpkg --root`, with this machine's
#     package list so that their Depends are checked);
#  3. a CMake project with find_package(UndodQt) and UndodQt::UndodQt,
#     pointed at the root, builds and runs against the installed library;
#  4. removing the packages leaves nothing of them behind.
# Needs root (dpkg --root); says so and passes otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/package-root.sh

begin_package_test "UndodQt package test" "dpkg --root"

mapfile -t debs < <(bash scripts/deb-undod-qt.sh)
[ "${#debs[@]}" = 2 ] || fail "make deb-undod-qt made ${#debs[@]} packages, not 2: ${debs[*]}"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

root="$work/root"
install_into_fresh_root "$root" --force-script-chrootless -- "${debs[@]}" || fail "dpkg -i"
lib="$root/usr/lib/$multiarch"
for file in "$lib/libUndodQt.so.0" "$lib/libUndodQt.so" "$root/usr/include/UndodQt/UndoStackBridge.h" \
            "$lib/cmake/UndodQt/UndodQtConfig.cmake"; do
  [ -e "$file" ] || fail "the packages did not install ${file#"$root"}"
done

mkdir -p "$work/app"
cat > "$work/app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(App LANGUAGES CXX)
find_package(UndodQt REQUIRED)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE UndodQt::UndodQt)
CMAKE
cat > "$work/app/main.cpp" <<'CPP'
#include <UndodQt/UndoStackBridge.h>
#include <cstring>
int main ()
{
  // The installed library answers for its class: linked and loaded.
  return std::strcmp (UndodQt::UndoStackBridge::staticMetaObject.className (), "UndodQt::UndoStackBridge") == 0 ? 0 : 1;
}
CPP
cmake -S "$work/app" -B "$work/app/build" -DCMAKE_PREFIX_PATH="$root/usr" >"$work/cmake.log" 2>&1 \
  || { cat "$work/cmake.log" >&2; fail "find_package(UndodQt) from the installed -dev package"; }
cmake --build "$work/app/build" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "a Qt program built against libundodqt-dev"; }
LD_LIBRARY_PATH="$lib" "$work/app/build/app" || fail "a Qt program against the installed libundodqt0"
# ldd's output read whole before it is searched: `ldd | grep -q` under
# pipefail failed one run in three, grep leaving first and ldd then
# killed by SIGPIPE.
linked=$(ldd "$work/app/build/app")
grep -q "$lib/libUndodQt.so.0" <<<"$linked" || fail "the program did not load the installed library"

dpkg --root="$root" --force-script-chrootless --purge libundodqt-dev libundodqt0 >"$work/purge.log" 2>&1 \
  || { cat "$work/purge.log" >&2; fail "dpkg --purge"; }
left=$(cd "$root" && find . -ipath '*undodqt*' -not -path './var/*' 2>/dev/null || true)
[ -z "$left" ] || fail "removing the packages left: $left"
echo "UndodQt package test: two packages install into a fresh root, build and run a CMake project, and go without a trace"
