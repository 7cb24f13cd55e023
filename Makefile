# undod — the two commands are `make run` and `make test`; both set up what
# they need first.

SHELL        := /bin/bash
.SHELLFLAGS  := -euo pipefail -c

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
BIN      = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)
# What is installed: built with the Swift runtime linked in, so that it runs
# on a machine without Swift (only Debian's libraries), in a build tree of
# its own.
STATIC   = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/static
STATIC_BIN = .build/static/release
# Where bash, zsh and fish look for completions under PREFIX. fish reads
# vendor completions only under /usr/share (and XDG_DATA_DIRS, which a
# login shell may lack): outside /usr they go to the admin's /etc/fish.
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS  ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
FISH_COMPLETIONS ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/fish/vendor_completions.d,/etc/fish/completions)
# undod's KWin script, where KWin and undod look for it (a KPackage).
KWIN_SCRIPT      ?= $(PREFIX)/share/kwin/scripts/undod
# undod's GNOME Shell extension (enabled by the user), in the variant the
# installed gnome-shell needs unless GNOME_SHELL_FORMAT says (43 or 45).
GNOME_EXTENSIONS ?= $(PREFIX)/share/gnome-shell/extensions
GNOME_EXTENSION  := $(GNOME_EXTENSIONS)/undod@undod.org
GNOME_SHELL_FORMAT ?=
# undod reads its system-wide config from /etc/xdg/undod/undod.conf
# whatever its PREFIX (the spec's Files), so the example config goes there.
SYSCONFDIR ?= /etc
# The test process's malloc hands out blocks of 16 KiB and more as mappings
# of their own: Foundation's Process.run (swift-corelibs-foundation) reads a
# fixed 256 bytes of each /proc/self/fd entry's name, past the end of
# opendir's 32 KiB buffer when the test process holds many descriptors, and
# the process crashed (SIGSEGV) when that buffer ended a heap's mapped part.
# A mapping of its own leaves 4 KiB of slack after it, when malloc makes one
# (not when it carves the buffer from a heap's top: a run crashed so once
# more). The fix is in the harness: it closes its descriptors as soon as it
# is done with them (BusHarness/HarnessDescriptors.swift, ExitWatch), so a
# full run peaks at about 450 where it climbed past 2,600, and opendir's
# buffer (filled only past about 1,300) is never read past. Tests only.
TEST_TUNABLES ?= glibc.malloc.mmap_threshold=16384
BENCH_ARGS ?=
N          ?= 100000
LIBUNDOD_BUILD ?= .build/libundod
# What `make install` installs libundod from (a release build for PREFIX),
# and where its libraries and typelibs go (Debian's multiarch directory).
LIBUNDOD_INSTALL_BUILD ?= .build/libundod-install
# (MULTIARCH is asked for once, and only by a rule that uses it.)
MULTIARCH = $(eval MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch))$(MULTIARCH)
LIBDIR ?= $(PREFIX)/lib/$(MULTIARCH)
UNDOD_QT_BUILD ?= .build/undod-qt
SEED       ?= $(shell date +%s)
# The Debian releases whose GNOME Shell, KWin and sway the compositor suites
# run on: the host's (bookworm) and, from roots built once and cached
# (scripts/desktop-root.sh), Debian 13 and Debian testing.
DESKTOP_SUITES ?= bookworm trixie forky
# What `make test-desktops` runs them on (e.g. SUITES=sid).
SUITES ?= sid

.PHONY: all deps build release static run demo test test-desktops desktop-roots libundod undod-qt coverage bench soak profile sanitize fuzz install install-undod install-libundod uninstall deb deb-libundod deb-undod-qt clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product undod
	$(SWIFT) build -c release --product undoctl

## The binaries `make install` and `make deb` ship: Swift runtime linked in.
static: deps
	$(STATIC) --product undod
	$(STATIC) --product undoctl
	$(STATIC) --product undod-files
	$(STATIC) --product undod-files-run

## Runs undod in the foreground: on the session bus if there is one, else on
## a private bus that it starts and names.
run: release
	@bash scripts/run.sh "$(BIN)"

## The global key tried without a desktop: a private bus, Xvfb, openbox,
## dunst, undod and Notes of its own; types, undoes, redoes, says what
## happened, and stays up for you until Ctrl+C (DEMO_ARGS=--once: stops).
demo: release
	@bash scripts/demo.sh "$(BIN)" $(DEMO_ARGS)

## Builds and passes every test, each suite on its own private bus.
test: deps
	/usr/bin/python3 scripts/check-layers.py
	$(MAKE) --no-print-directory desktop-roots
	$(SWIFT) build --build-tests
	bash scripts/check-links.sh "$$($(SWIFT) build --show-bin-path)"
	$(MAKE) --no-print-directory libundod undod-qt
	UNDOD_DESKTOP_SUITES="$(DESKTOP_SUITES)" GLIBC_TUNABLES=$(TEST_TUNABLES) $(SWIFT) test --skip-build
	meson test -C "$(LIBUNDOD_BUILD)" --print-errorlogs
	/usr/bin/python3 scripts/docs-test.py "$$($(SWIFT) build --show-bin-path)" "$(LIBUNDOD_BUILD)"
	/usr/bin/python3 scripts/check-rules.py
	ctest --test-dir "$(UNDOD_QT_BUILD)" --output-on-failure
	bash scripts/run-test.sh "$$($(SWIFT) build --show-bin-path)"
	bash scripts/package-test.sh
	bash scripts/package-test-libundod.sh
	bash scripts/package-test-undod-qt.sh

## Builds (once) or unpacks the roots of newer Debians' desktops that the
## compositor suites run in: DESKTOP_SUITES less the host's.
desktop-roots: deps
	@for suite in $(filter-out bookworm,$(DESKTOP_SUITES)); do bash scripts/desktop-root.sh "$$suite" >/dev/null; done

## The compositor suites (GNOME Shell, KWin, sway) on the desktops of
## SUITES (default sid: Debian unstable), from roots built on demand.
test-desktops: deps
	$(MAKE) --no-print-directory desktop-roots DESKTOP_SUITES="$(SUITES)"
	$(SWIFT) build --build-tests
	UNDOD_DESKTOP_SUITES="$(SUITES)" UNDOD_PORTAL_TESTS=1 GLIBC_TUNABLES=$(TEST_TUNABLES) \
	  $(SWIFT) test --skip-build --filter 'GnomeShellTests|KWinTests|SwayTests/.*release|DeadKeyTests|GnomePortalTests|KDEPortalTests'

## Builds libundod, the C/GObject client library, and its typelib
## (Undod-1.0) with meson in $(LIBUNDOD_BUILD); its tests run the debug undod.
libundod: deps
	$(SWIFT) build --product undod
	meson setup $$([ -f "$(LIBUNDOD_BUILD)/build.ninja" ] && echo --reconfigure) "$(LIBUNDOD_BUILD)" libundod \
	  -Dundod="$$($(SWIFT) build --show-bin-path)/undod" >/dev/null
	meson compile -C "$(LIBUNDOD_BUILD)"

## Builds UndodQt, the QUndoStack bridge (C++, Qt 5, CMake), its test and
## the qt-shapes example in $(UNDOD_QT_BUILD).
undod-qt: deps
	$(SWIFT) build --product undod
	cmake -S undod-qt -B "$(UNDOD_QT_BUILD)" -DUNDOD="$$($(SWIFT) build --show-bin-path)/undod" >/dev/null
	cmake --build "$(UNDOD_QT_BUILD)" -j2

## Prints line coverage of the UndoCore module.
coverage: deps
	@bash scripts/coverage.sh

## Builds undod and undod-bench in release mode and measures how close undod
## sits to the bus floor (BENCHMARKS.md); the shell's rows (9-11) run the
## static builds `make install` ships. BENCH_ARGS=--quick for a short run,
## BENCH_ARGS=--json for one JSON object.
bench: deps static
	$(SWIFT) build -c release --product undod
	$(SWIFT) build -c release --product undod-bench
	$(SWIFT) build -c release --product undoctl
	"$(BIN)/undod-bench" --undod "$(BIN)/undod" --shell-tools "$(STATIC_BIN)" $(BENCH_ARGS)

## Repeats the pipelined runs (UndoKit's, undod-bench --only 7, and the raw
## one, --quick --only 2) RUNS times (default 100), or until Ctrl-C, and
## prints how many failed.
RUNS ?= 100
soak: deps
	bash scripts/soak.sh $(RUNS)

## Fuzzes undod with N calls (default 100000) from seed SEED (default: the
## time); a failure names the seed and call that replay it.
fuzz: deps
	$(SWIFT) build --build-tests
	UNDOD_FUZZ_CALLS=$(N) UNDOD_FUZZ_SEED=$(SEED) $(SWIFT) test --skip-build --filter FuzzTests

## Builds and runs the whole suite under AddressSanitizer, then
## ThreadSanitizer (SANITIZERS=address for one); any report fails it.
sanitize: deps
	$(MAKE) --no-print-directory libundod undod-qt
	bash scripts/sanitize.sh

# Instructions per call in undod and in the bus, by callgrind (BENCHMARKS.md).
profile: deps
	bash scripts/profile.sh

## Installs under PREFIX (default /usr/local; DESTDIR for staging): undod
## and libundod (install-undod, install-libundod).
install: install-undod install-libundod

## undod: the binaries, man pages, D-Bus activation file and interface,
## systemd user unit, completions, the example config, the KWin script and
## the GNOME Shell extension.
install-undod: static
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/dbus-1/services" "$(DESTDIR)$(PREFIX)/share/dbus-1/interfaces" \
	  "$(DESTDIR)$(PREFIX)/lib/systemd/user" "$(DESTDIR)$(SYSCONFDIR)/xdg/undod" \
	  "$(DESTDIR)$(BASH_COMPLETIONS)" "$(DESTDIR)$(ZSH_COMPLETIONS)" "$(DESTDIR)$(FISH_COMPLETIONS)" \
	  "$(DESTDIR)$(KWIN_SCRIPT)/contents/code" "$(DESTDIR)$(PREFIX)/share/applications"
	install -m 0755 "$(STATIC_BIN)/undod" "$(STATIC_BIN)/undoctl" "$(STATIC_BIN)/undod-files" \
	  "$(STATIC_BIN)/undod-files-run" "$(DESTDIR)$(PREFIX)/bin/"
	install -m 0644 Docs/undoctl.1 Docs/undod.1 Docs/undod-files.1 Docs/undod-files-run.1 \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/"
	sed 's|@BINDIR@|$(PREFIX)/bin|' Service/org.undod.Undo1.service > "$(DESTDIR)$(PREFIX)/share/dbus-1/services/org.undod.Undo1.service"
	sed 's|@BINDIR@|$(PREFIX)/bin|' Service/org.undod.Files1.service > "$(DESTDIR)$(PREFIX)/share/dbus-1/services/org.undod.Files1.service"
	sed 's|@BINDIR@|$(PREFIX)/bin|' Service/undod.service > "$(DESTDIR)$(PREFIX)/lib/systemd/user/undod.service"
	sed 's|@BINDIR@|$(PREFIX)/bin|' Service/org.undod.undod.desktop > "$(DESTDIR)$(PREFIX)/share/applications/org.undod.undod.desktop"
	install -m 0644 Service/org.undod.Undo1.xml "$(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/"
	install -m 0644 Config/undod.conf "$(DESTDIR)$(SYSCONFDIR)/xdg/undod/undod.conf"
	install -m 0644 Service/kwin/undod/metadata.json "$(DESTDIR)$(KWIN_SCRIPT)/"
	install -m 0644 Service/kwin/undod/contents/code/main.js "$(DESTDIR)$(KWIN_SCRIPT)/contents/code/"
	bash scripts/gnome-extension.sh "$(DESTDIR)$(GNOME_EXTENSIONS)" $(GNOME_SHELL_FORMAT)
	"$(STATIC_BIN)/undoctl" completion bash > "$(DESTDIR)$(BASH_COMPLETIONS)/undoctl"
	"$(STATIC_BIN)/undoctl" completion zsh > "$(DESTDIR)$(ZSH_COMPLETIONS)/_undoctl"
	"$(STATIC_BIN)/undoctl" completion fish > "$(DESTDIR)$(FISH_COMPLETIONS)/undoctl.fish"

## libundod, its GTK bridges, headers, pkg-config files, GIRs, typelibs and
## API reference, in LIBDIR (PREFIX's multiarch directory).
install-libundod: deps
	meson setup $$([ -f "$(LIBUNDOD_INSTALL_BUILD)/build.ninja" ] && echo --reconfigure) "$(LIBUNDOD_INSTALL_BUILD)" \
	  libundod --prefix="$(PREFIX)" --libdir="$(LIBDIR)" --buildtype=release -Dundod=/bin/false >/dev/null
	meson compile -C "$(LIBUNDOD_INSTALL_BUILD)" >/dev/null
	meson install -C "$(LIBUNDOD_INSTALL_BUILD)" --no-rebuild $(if $(DESTDIR),--destdir "$(DESTDIR)") >/dev/null
	@if [ -z "$(DESTDIR)" ] && [ -w /etc/ld.so.cache ]; then ldconfig; fi
	@case "$(LIBDIR)" in /usr/lib/*) ;; *) echo "libundod is in $(LIBDIR): for Python, GJS and the other languages" \
	  "that load its typelib, export GI_TYPELIB_PATH=$(LIBDIR)/girepository-1.0";; esac

## Removes everything `make install` put down (same PREFIX and DESTDIR),
## and the directories it made that are left empty.
uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/undod" "$(DESTDIR)$(PREFIX)/bin/undoctl" "$(DESTDIR)$(PREFIX)/bin/undod-files" "$(DESTDIR)$(PREFIX)/bin/undod-files-run" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/undoctl.1" "$(DESTDIR)$(PREFIX)/share/man/man1/undod.1" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/undod-files.1" "$(DESTDIR)$(PREFIX)/share/man/man1/undod-files-run.1" \
	  "$(DESTDIR)$(PREFIX)/share/dbus-1/services/org.undod.Undo1.service" \
	  "$(DESTDIR)$(PREFIX)/share/dbus-1/services/org.undod.Files1.service" \
	  "$(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/org.undod.Undo1.xml" \
	  "$(DESTDIR)$(PREFIX)/lib/systemd/user/undod.service" \
	  "$(DESTDIR)$(PREFIX)/share/applications/org.undod.undod.desktop" \
	  "$(DESTDIR)$(SYSCONFDIR)/xdg/undod/undod.conf" \
	  "$(DESTDIR)$(BASH_COMPLETIONS)/undoctl" "$(DESTDIR)$(ZSH_COMPLETIONS)/_undoctl" \
	  "$(DESTDIR)$(FISH_COMPLETIONS)/undoctl.fish" \
	  "$(DESTDIR)$(KWIN_SCRIPT)/metadata.json" "$(DESTDIR)$(KWIN_SCRIPT)/contents/code/main.js"
	rmdir "$(DESTDIR)$(SYSCONFDIR)/xdg/undod" 2>/dev/null || true
	for d in /contents/code /contents ""; do rmdir "$(DESTDIR)$(KWIN_SCRIPT)$$d" 2>/dev/null || true; done
	rm -f "$(DESTDIR)$(GNOME_EXTENSION)/metadata.json" "$(DESTDIR)$(GNOME_EXTENSION)/extension.js" \
	  "$(DESTDIR)$(GNOME_EXTENSION)/schemas/org.gnome.shell.extensions.undod.gschema.xml" \
	  "$(DESTDIR)$(GNOME_EXTENSION)/schemas/gschemas.compiled"
	for d in /schemas ""; do rmdir "$(DESTDIR)$(GNOME_EXTENSION)$$d" 2>/dev/null || true; done
	rm -rf "$(DESTDIR)$(PREFIX)/include/undod-1" "$(DESTDIR)$(PREFIX)/share/doc/Undod-1"
	rm -f "$(DESTDIR)$(LIBDIR)"/libundod-1.so* "$(DESTDIR)$(LIBDIR)"/libundod-gtk[34]-1.so* \
	  "$(DESTDIR)$(LIBDIR)"/pkgconfig/undod-1.pc "$(DESTDIR)$(LIBDIR)"/pkgconfig/undod-gtk[34]-1.pc \
	  "$(DESTDIR)$(LIBDIR)"/girepository-1.0/Undod-1.0.typelib "$(DESTDIR)$(LIBDIR)"/girepository-1.0/UndodGtk*-1.0.typelib \
	  "$(DESTDIR)$(PREFIX)"/share/gir-1.0/Undod-1.0.gir "$(DESTDIR)$(PREFIX)"/share/gir-1.0/UndodGtk*-1.0.gir
	@if [ -z "$(DESTDIR)" ] && [ -w /etc/ld.so.cache ]; then ldconfig; fi

## A Debian package of what `make install` installs (PREFIX /usr), its
## Depends computed from what the binaries link, checked by lintian.
deb: static
	bash scripts/deb.sh

## Builds libundod's packages (runtime, GTK bridges, gir1.2, -dev) into dist/.
deb-libundod: deps
	bash scripts/deb-libundod.sh

## Builds UndodQt's Debian packages (libundodqt0, libundodqt-dev) into dist/.
deb-undod-qt: deps
	bash scripts/deb-undod-qt.sh

clean:
	$(SWIFT) package clean
	rm -rf "$(LIBUNDOD_BUILD)" "$(UNDOD_QT_BUILD)"
