# Builds and installs insetd the way an administrator expects:
#
#   make                                  release build of insetd (which is also
#                                         insetctl and insetd-osk) and insetd-testbed
#   sudo make install                     into /usr/local (PREFIX), units and all
#                                         (builds first only if `make` has not)
#   make install PREFIX=/usr DESTDIR=pkg  staged, for a package or an image
#   sudo make uninstall                   removes what install put there
#   make libinsetd                        only the C client library (libinsetd/,
#                                         docs/CLIENTS.md); `make check-libinsetd`
#                                         runs its tests against the built insetd
#   make deb                              Debian packages in dist/ (insetd,
#                                         insetd-osk, insetd-testbed), checked
#                                         with lintian (docs/DAEMON.md)
#
# The Swift runtime is linked statically (STATIC=1, the default) so the installed
# daemon needs no Swift toolchain and no path the unit's ProtectHome= hides, only
# libudev, libevdev and libyaml. STATIC=0 links it dynamically (the binaries then
# need the toolchain's runtime where they were built). docs/DAEMON.md has the whole
# path from clone to a running socket.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/insetd
# systemd and systemd-sysusers search PREFIX/lib/... for both /usr and /usr/local.
UNITDIR ?= $(PREFIX)/lib/systemd/system
# insetd-osk runs in the user's graphical session: a user unit.
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# GNOME Shell looks for system-wide extensions under $XDG_DATA_DIRS/gnome-shell/extensions.
GNOMEEXTDIR ?= $(PREFIX)/share/gnome-shell/extensions
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# insetd reads /etc/insetd/insetd.yaml whatever the prefix.
SYSCONFDIR ?= /etc
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# libinsetd, the C client library (a Debian package would pass its multiarch
# LIBDIR, /usr/lib/x86_64-linux-gnu).
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# sudo's secure_path usually lacks the toolchain: fall back to where the README installs it.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# Footprint (issue 40, docs/PERFORMANCE.md "Footprint"): the toolchain's lld
# with RELR relocations (-z pack-relative-relocs; glibc >= 2.36) instead of
# gold, whose table of relative relocations was 1.5 MB of the static binary,
# and -Osize. -Xswiftc reaches every compile command too, so whatever else
# builds into .build-static uses these same flags (`make -s static-link-flags`).
LEAN := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xswiftc -Osize
# Idle memory (issue 40, docs/PERFORMANCE.md "Stop 45"): every function in a
# section of its own, and the ones insetd runs from exec to idle
# (scripts/startup.order, made by scripts/startup-order) linked first, together:
# the kernel maps code 64 KiB around each first touch, so scattered start-up
# code made most of the binary's code resident.
ORDER ?= $(CURDIR)/scripts/startup.order
LEAN += -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --symbol-ordering-file=$(ORDER) -Xlinker --no-warn-symbol-ordering
STATIC ?= 1
ifeq ($(STATIC),1)
SCRATCH ?= .build-static
# --no-export-dynamic undoes the toolchain's -export-dynamic for static
# binaries: nothing looks insetd's symbols up by name (the concurrency hook is
# linked by reference, CConcurrencyHook), and exporting every Swift symbol of
# its packages cost 1.8 MB of symbol tables and kept unused code alive.
LINK := --static-swift-stdlib -Xlinker --no-export-dynamic $(LEAN)
else
# The shared Swift runtime (scripts/perf --dynamic): the same code layout and
# flags, so its idle memory differs from the static build's by the runtime alone.
SCRATCH ?= .build-dynamic
LINK := $(LEAN)
endif
# INSETD_SPEED_PATH: the modules between an evdev read and a client's sendto are
# compiled for speed (Package.swift); every build into $(SCRATCH) sets it, or the
# next one compiles them again. Scripts that add to $(SCRATCH) read it with
# `make -s static-build-env`.
SPEED_PATH := INSETD_SPEED_PATH=1
SWIFT_BUILD = $(SPEED_PATH) $(SWIFT) build -c release --scratch-path $(SCRATCH) $(LINK)
RELEASE = $(SCRATCH)/release

INSTALL ?= install
# Installed beside the README into DOCDIR (the units' Documentation= points there).
DOCS = docs/PROTOCOL.md docs/DAEMON.md docs/OSK.md docs/WEB.md docs/HIL-USERS.md docs/CLIENTS.md docs/QT.md
PROGRAMS = insetd insetctl insetd-osk insetd-testbed
# Installed as symbolic links to insetd, a multi-call binary that is the
# command it is called as: one copy of the Swift runtime and FoundationEssentials
# (~14 MB) for all three (docs/PERFORMANCE.md, "Footprint"). Their own
# products still build for the tests and the man pages.
LINKED_PROGRAMS = insetctl insetd-osk
BINARIES = $(filter-out $(LINKED_PROGRAMS),$(PROGRAMS))
# Installed into MANDIR/manN by their suffix; all but insetd.yaml.5 are generated
# from each binary's own argument definitions (`make man completions`).
MANPAGES = man/insetd.8 man/insetctl.1 man/insetd-osk.1 man/insetd-testbed.1 man/insetd.yaml.5

.PHONY: static-link-flags static-build-env all build install uninstall deb man completions check-install clean libinsetd check-libinsetd

all: build libinsetd

# The release build's flags, for scripts that add a product to $(SCRATCH).
static-link-flags:
	@echo $(LINK)

# The environment of the release build, for the same scripts.
static-build-env:
	@echo $(SPEED_PATH)

# libinsetd: a versioned shared library (SONAME libinsetd.so.1) on json-c,
# built with the system's C compiler into .build-libinsetd/. The ABI version
# (LIB_ABI) changes only when the interface breaks; LIB_VERSION follows insetd.
CC ?= cc
PKG_CONFIG ?= pkg-config
LIB_ABI = 1
LIB_VERSION = $(LIB_ABI).0.0
LIB_BUILD = .build-libinsetd
LIB_CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden -D_GNU_SOURCE -DINSETD_SHARED \
	-Ilibinsetd/include $(shell $(PKG_CONFIG) --cflags json-c) $(CFLAGS)
LIB_LIBS = $(shell $(PKG_CONFIG) --libs json-c) -lm
LIB_SO = $(LIB_BUILD)/libinsetd.so.$(LIB_VERSION)
# insetd-private.h is shared by the sources and never installed.
LIB_SRCS = $(addprefix libinsetd/src/,context.c connection.c receive.c requests.c event.c)
LIB_HDRS = libinsetd/include/insetd.h libinsetd/src/insetd-private.h
# The version script: which symbols are exported, under which version.
LIB_MAP = libinsetd/libinsetd.map

libinsetd: $(LIB_SO)

$(LIB_SO): $(LIB_SRCS) $(LIB_HDRS) $(LIB_MAP)
	mkdir -p $(LIB_BUILD)
	$(CC) $(LIB_CFLAGS) -shared -Wl,-soname,libinsetd.so.$(LIB_ABI) -Wl,--no-undefined \
	    -Wl,--version-script,$(LIB_MAP) $(LDFLAGS) -o $@ $(LIB_SRCS) $(LIB_LIBS)
	ln -sf libinsetd.so.$(LIB_VERSION) $(LIB_BUILD)/libinsetd.so.$(LIB_ABI)
	ln -sf libinsetd.so.$(LIB_ABI) $(LIB_BUILD)/libinsetd.so

# The tests, one file per concern (test-main.c lists them); SOURCE_ROOT finds
# docs/PROTOCOL.md, whose socket path table they check the library against.
LIB_TESTS = $(addprefix libinsetd/tests/,test-main.c harness.c test-api.c test-socket-path.c test-hostile.c test-daemon.c)
$(LIB_BUILD)/test-libinsetd: $(LIB_TESTS) libinsetd/tests/harness.h $(LIB_SO)
	$(CC) -std=c11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Ilibinsetd/include -DSOURCE_ROOT='"$(CURDIR)"' \
	    $(shell $(PKG_CONFIG) --cflags json-c) -o $@ $(LIB_TESTS) \
	    -L$(LIB_BUILD) -linsetd -Wl,-rpath,'$$ORIGIN' $(shell $(PKG_CONFIG) --libs json-c) -ldl

# The C tests against the real insetd (INSETD=path, default the debug build).
# First: the library exports exactly debian/libinsetd1.symbols (names and
# versions; the version nodes are listed as NODE@NODE there).
check-libinsetd: $(LIB_BUILD)/test-libinsetd
	nm -D --defined-only --with-symbol-versions $(LIB_SO) | awk '{ print $$3 }' \
	    | sed -e 's/@@*/@/' -e 's/^\(LIBINSETD_[0-9.]*\)$$/\1@\1/' | sort > $(LIB_BUILD)/exported.txt
	sed -n 's/^ \([^ ]*\) .*/\1/p' debian/libinsetd1.symbols | sort | diff -u - $(LIB_BUILD)/exported.txt
	$(LIB_BUILD)/test-libinsetd $(or $(INSETD),.build/debug/insetd)

# One product per run: swift build takes only the last of several --product options.
build:
	for p in $(BINARIES); do $(SWIFT_BUILD) --product $$p || exit 1; done

# Built only when missing, so `make && sudo make install` installs what `make`
# built without running the toolchain as root.
$(addprefix $(RELEASE)/,$(BINARIES)):
	$(MAKE) build STATIC=$(STATIC)

install: $(addprefix $(RELEASE)/,$(BINARIES)) libinsetd
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(addprefix $(RELEASE)/,$(BINARIES)) $(DESTDIR)$(BINDIR)/
	for p in $(LINKED_PROGRAMS); do ln -sf insetd $(DESTDIR)$(BINDIR)/$$p || exit 1; done
	$(INSTALL) -d $(DESTDIR)$(UNITDIR)
	# Commands and documents where this install puts them; the man pages join
	# Documentation= here, where they are installed too (systemd-analyze verify
	# checks that each one opens).
	sed -e 's|/usr/bin/|$(BINDIR)/|g' -e 's|/usr/share/doc/insetd/|$(DOCDIR)/|g' \
	    -e 's|^Documentation=|Documentation=man:insetd(8) man:insetd.yaml(5) |' \
	    systemd/insetd.service > $(DESTDIR)$(UNITDIR)/insetd.service
	$(INSTALL) -m 0644 systemd/insetd.socket $(DESTDIR)$(UNITDIR)/insetd.socket
	chmod 0644 $(DESTDIR)$(UNITDIR)/insetd.service
	$(INSTALL) -d $(DESTDIR)$(USERUNITDIR)
	sed -e 's|/usr/bin/|$(BINDIR)/|g' -e 's|/usr/share/doc/insetd/|$(DOCDIR)/|g' \
	    -e 's|^Documentation=|Documentation=man:insetd-osk(1) |' \
	    systemd/insetd-osk.service > $(DESTDIR)$(USERUNITDIR)/insetd-osk.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/insetd-osk.service
	# insetd's GNOME Shell extension, which insetd-osk --backend gnome drives (docs/OSK.md).
	$(INSTALL) -D -m 0644 -t $(DESTDIR)$(GNOMEEXTDIR)/insetd@insetd \
	    gnome-shell/insetd@insetd/metadata.json gnome-shell/insetd@insetd/extension.js
	$(INSTALL) -D -m 0644 systemd/insetd.sysusers $(DESTDIR)$(SYSUSERSDIR)/insetd.conf
	# The shipped configuration only when there is none: never overwrite an
	# administrator's file.
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/insetd
	[ -e $(DESTDIR)$(SYSCONFDIR)/insetd/insetd.yaml ] || \
	    $(INSTALL) -m 0644 config/insetd.yaml $(DESTDIR)$(SYSCONFDIR)/insetd/insetd.yaml
	for page in $(MANPAGES); do \
	    $(INSTALL) -D -m 0644 $$page $(DESTDIR)$(MANDIR)/man$${page##*.}/$${page#man/} || exit 1; \
	done
	for p in $(PROGRAMS); do \
	    $(INSTALL) -D -m 0644 completions/$$p.bash $(DESTDIR)$(BASHCOMPDIR)/$$p && \
	    $(INSTALL) -D -m 0644 completions/_$$p $(DESTDIR)$(ZSHCOMPDIR)/_$$p && \
	    $(INSTALL) -D -m 0644 completions/$$p.fish $(DESTDIR)$(FISHCOMPDIR)/$$p.fish || exit 1; \
	done
	# libinsetd: the library and its two links, header, pkg-config file, man page.
	$(INSTALL) -D -m 0644 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libinsetd.so.$(LIB_VERSION)
	ln -sf libinsetd.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/libinsetd.so.$(LIB_ABI)
	ln -sf libinsetd.so.$(LIB_ABI) $(DESTDIR)$(LIBDIR)/libinsetd.so
	$(INSTALL) -D -m 0644 libinsetd/include/insetd.h $(DESTDIR)$(INCLUDEDIR)/insetd.h
	# insetd.pc names this install's directories (written here, not at build time).
	$(INSTALL) -d $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e "s|@VERSION@|$$(cat VERSION)|" libinsetd/insetd.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/insetd.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/insetd.pc
	$(INSTALL) -D -m 0644 man/libinsetd.3 $(DESTDIR)$(MANDIR)/man3/libinsetd.3
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0644 README.md LICENSE $(DOCS) $(DESTDIR)$(DOCDIR)/
	# The drop-in WEB.md describes, with its own install command's path.
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/examples
	sed -e 's|/usr/share/doc/insetd/|$(DOCDIR)/|g' systemd/websocket.conf > $(DESTDIR)$(DOCDIR)/examples/websocket.conf
	chmod 0644 $(DESTDIR)$(DOCDIR)/examples/websocket.conf
	$(MAKE) -s install-chromium-extension
	@echo "installed; next: systemd-sysusers && systemctl daemon-reload && systemctl enable --now insetd.socket"

# Debian packages, with Debian's tools (debian/: debhelper compat 13, dh). The
# release build runs here, as the invoking user; debian/rules builds nothing and
# packages these binaries. The packages are made in a copy (.build-deb/) of what
# they are made of, with debian/changelog's first entry stamped with DEB_VERSION,
# so the checkout stays clean and its version is the one --version prints.
# DEB_VERSION_SUFFIX (+test1) makes a higher version of the same build. Then
# lintian: any error or warning fails (debian/*.lintian-overrides hold the
# explained ones); LINTIAN= skips it.
DEB_VERSION ?= $(shell scripts/version | tr - +)$(DEB_VERSION_SUFFIX)
DEB_STAGE = .build-deb/insetd-$(DEB_VERSION)
DEB_PACKAGES = insetd insetd-osk insetd-testbed libinsetd1 libinsetd-dev
LINTIAN ?= lintian
DEB_SOURCES = Makefile VERSION LICENSE README.md $(DOCS) config systemd man completions debian libinsetd gnome-shell

# The -dbgsym packages (debug information) stay in .build-deb/.
deb: build
	rm -rf .build-deb
	mkdir -p $(DEB_STAGE)/$(RELEASE) dist
	cp -a --parents $(DEB_SOURCES) $(DEB_STAGE)/
	cp -al $(addprefix $(RELEASE)/,$(BINARIES)) $(DEB_STAGE)/$(RELEASE)/
	sed -i '1s/^insetd ([^)]*)/insetd ($(DEB_VERSION))/' $(DEB_STAGE)/debian/changelog
	cd $(DEB_STAGE) && dpkg-buildpackage -b -us -uc --no-pre-clean >../build.log 2>&1 \
	    || { tail -30 ../build.log; echo "deb: dpkg-buildpackage failed, see .build-deb/build.log" >&2; exit 1; }
	rm -f $(foreach p,$(DEB_PACKAGES),dist/$(p)_*.deb)
	cp $(foreach p,$(DEB_PACKAGES),.build-deb/$(p)_$(DEB_VERSION)_*.deb) dist/
	[ -z "$(LINTIAN)" ] || $(LINTIAN) --fail-on error,warning $(foreach p,$(DEB_PACKAGES),dist/$(p)_$(DEB_VERSION)_*.deb)
	@ls -1 $(foreach p,$(DEB_PACKAGES),dist/$(p)_$(DEB_VERSION)_*.deb)

# Leaves /etc/insetd/insetd.yaml: it may hold the administrator's changes.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(PROGRAMS))
	rm -f $(DESTDIR)$(UNITDIR)/insetd.service $(DESTDIR)$(UNITDIR)/insetd.socket
	rm -f $(DESTDIR)$(USERUNITDIR)/insetd-osk.service
	rm -f $(DESTDIR)$(GNOMEEXTDIR)/insetd@insetd/metadata.json $(DESTDIR)$(GNOMEEXTDIR)/insetd@insetd/extension.js
	-rmdir $(DESTDIR)$(GNOMEEXTDIR)/insetd@insetd 2>/dev/null
	for page in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${page##*.}/$${page#man/}; done
	for p in $(PROGRAMS); do \
	    rm -f $(DESTDIR)$(BASHCOMPDIR)/$$p $(DESTDIR)$(ZSHCOMPDIR)/_$$p $(DESTDIR)$(FISHCOMPDIR)/$$p.fish; \
	done
	rm -f $(DESTDIR)$(SYSUSERSDIR)/insetd.conf
	rm -f $(DESTDIR)$(LIBDIR)/libinsetd.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/libinsetd.so.$(LIB_ABI) \
	    $(DESTDIR)$(LIBDIR)/libinsetd.so $(DESTDIR)$(INCLUDEDIR)/insetd.h $(DESTDIR)$(PKGCONFIGDIR)/insetd.pc \
	    $(DESTDIR)$(MANDIR)/man3/libinsetd.3
	rm -f $(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/LICENSE $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	rm -f $(DESTDIR)$(DOCDIR)/examples/websocket.conf
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null
	rm -rf $(DESTDIR)$(EXTENSIONDIR)
	-rmdir $(DESTDIR)$(PREFIX)/share/insetd 2>/dev/null
	@echo "uninstalled; $(SYSCONFDIR)/insetd/insetd.yaml is kept"

# Regenerates the committed man pages (all but insetd.yaml.5) and the completions
# from the binaries' own argument definitions (swift-argument-parser's
# generate-manual plugin and --generate-completion-script); insetd.yaml.5 is
# written by hand. Run after changing an option or subcommand.
man:
	for p in $(PROGRAMS); do $(SWIFT) build --product $$p || exit 1; done
	# Running the plugin builds its tool, generate-manual, which is then run per
	# binary for the right section (the plugin itself gives every page one).
	$(SWIFT) package plugin generate-manual --help >/dev/null
	.build/debug/generate-manual-tool .build/debug/insetd --section 8 --date $$(git log -1 --format=%cs) \
	    --output-directory man
	.build/debug/generate-manual-tool .build/debug/insetctl --section 1 --date $$(git log -1 --format=%cs) \
	    --output-directory man
	# insetd has no subcommands; the generator lists one for the built-in help.
	.build/debug/generate-manual-tool .build/debug/insetd-osk --section 1 --date $$(git log -1 --format=%cs) \
	    --output-directory man
	.build/debug/generate-manual-tool .build/debug/insetd-testbed --section 1 --date $$(git log -1 --format=%cs) \
	    --output-directory man
	# insetd and insetd-osk have no subcommands; the generator lists one for the built-in help.
	sed -i '/^\.Ar subcommand$$/d' man/insetd.8 man/insetd-osk.1

completions:
	for p in $(PROGRAMS); do $(SWIFT) build --product $$p || exit 1; done
	for p in $(PROGRAMS); do \
	    for shell in bash zsh fish; do \
	        .build/debug/$$p --generate-completion-script $$shell > completions/$$p.$$shell || exit 1; \
	    done; \
	    mv completions/$$p.zsh completions/_$$p; \
	done

# Installs into a scratch DESTDIR and checks the result (scripts/test-install).
check-install:
	scripts/test-install

clean:
	rm -rf $(SCRATCH)/release $(LIB_BUILD) .build-deb

# The Chromium extension (docs/WEB.md, "The Chromium extension"): its files and
# the page library it runs, web/insetd.js and its parts (one copy in the tree,
# installed beside the extension's modules that import it).
EXTENSIONDIR ?= $(PREFIX)/share/insetd/chromium-extension
EXTENSION_FILES = $(wildcard web/chromium-extension/*.js web/chromium-extension/*.json web/insetd*.js)
.PHONY: install-chromium-extension
install-chromium-extension:
	$(INSTALL) -d $(DESTDIR)$(EXTENSIONDIR)
	$(INSTALL) -m 0644 $(EXTENSION_FILES) $(DESTDIR)$(EXTENSIONDIR)/
DEB_SOURCES += web

# The Qt input context plugin (qt/imcontext, docs/QT.md): QT_IM_MODULE=insetd
# in any Qt 6 app. Built with CMake against the system Qt (its private
# headers: qt6-base-private-dev) and installed into Qt's own plugin directory,
# whatever PREFIX is: Qt looks for plugins there (or in QT_PLUGIN_PATH).
QT_IM_BUILD = .build-qt-im
QT_PLUGINDIR ?= $(shell qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null)
QT_IM_PLUGIN = platforminputcontexts/libinsetdplatforminputcontextplugin.so
DEB_SOURCES += qt/imcontext
DEB_PACKAGES += qt6-insetd-inputcontext
.PHONY: qt-im install-qt-im uninstall-qt-im

qt-im:
	cmake -S qt/imcontext -B $(QT_IM_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(QT_IM_BUILD) -j2

install: install-qt-im
install-qt-im: qt-im
	@[ -n "$(QT_PLUGINDIR)" ] || { echo "install: qtpaths6 is missing (qt6-base-dev): set QT_PLUGINDIR" >&2; exit 1; }
	$(INSTALL) -D -m 0644 $(QT_IM_BUILD)/plugins/$(QT_IM_PLUGIN) $(DESTDIR)$(QT_PLUGINDIR)/$(QT_IM_PLUGIN)

uninstall: uninstall-qt-im
uninstall-qt-im:
	rm -f $(DESTDIR)$(QT_PLUGINDIR)/$(QT_IM_PLUGIN)

# The GTK4 input-method module (gtk/, docs/GTK.md): one GIO module on GTK4 and
# libinsetd, installed into GTK's own immodules directory (where every GTK4 app
# looks, whatever PREFIX is; GTK_IMMODULEDIR overrides it). Built and installed
# only where GTK4's development files are (pkg-config gtk4).
HAVE_GTK4 := $(shell $(PKG_CONFIG) --exists gtk4 && echo 1)
GTK_IMMODULEDIR ?= $(shell $(PKG_CONFIG) --variable=libdir gtk4)/gtk-4.0/4.0.0/immodules
GTK_BUILD = .build-gtk
GTK_IM_SO = $(GTK_BUILD)/4.0.0/immodules/libim-insetd.so
GTK_SRCS = gtk/insetd-im-module.c gtk/insetd-gtk.c gtk/insetd-gtk-view.c gtk/insetd-gtk-window.c
GTK_HDRS = gtk/insetd-gtk.h gtk/insetd-gtk-view.h gtk/insetd-gtk-window.h
DOCS += docs/GTK.md
DEB_PACKAGES += insetd-gtk4-im
DEB_SOURCES += gtk

.PHONY: gtk-im install-gtk-im uninstall-gtk-im
all: gtk-im
install: install-gtk-im
uninstall: uninstall-gtk-im

ifeq ($(HAVE_GTK4),1)
gtk-im: $(GTK_IM_SO)
else
gtk-im:
	@echo "gtk-im: skipped (no gtk4 pkg-config file: apt-get install libgtk-4-dev)"
endif

# GTK_PATH=$(GTK_BUILD) makes GTK load this build (scripts/gtk-test).
$(GTK_IM_SO): $(GTK_SRCS) $(GTK_HDRS) $(LIB_SO)
	mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden -D_GNU_SOURCE \
	    -Ilibinsetd/include $(shell $(PKG_CONFIG) --cflags gtk4) $(CFLAGS) \
	    -shared -Wl,--no-undefined $(LDFLAGS) -o $@ $(GTK_SRCS) \
	    -L$(LIB_BUILD) -linsetd $(shell $(PKG_CONFIG) --libs gtk4) -lm

install-gtk-im: gtk-im
ifeq ($(HAVE_GTK4),1)
	$(INSTALL) -D -m 0644 $(GTK_IM_SO) $(DESTDIR)$(GTK_IMMODULEDIR)/libim-insetd.so
endif

uninstall-gtk-im:
	rm -f $(DESTDIR)$(GTK_IMMODULEDIR)/libim-insetd.so

# The Insetd QML module (qt/, docs/QT.md): `import Insetd` in Qt Quick apps.
# Built with CMake against the system Qt (qt6-declarative-dev) and installed
# into Qt's own QML directory, whatever PREFIX is: QML looks for modules there
# (or on QML_IMPORT_PATH). The module's three files are one directory, Insetd/.
QT_QML_BUILD = .build-qt
QT_QMLDIR ?= $(shell qtpaths6 --query QT_INSTALL_QML 2>/dev/null)
QT_QML_FILES = qmldir insetdqml.qmltypes libinsetdqml.so
DEB_SOURCES += qt/CMakeLists.txt qt/src qt/tests qt/shared
DEB_PACKAGES += qml6-module-insetd
.PHONY: qt-qml install-qt-qml uninstall-qt-qml

qt-qml:
	cmake -S qt -B $(QT_QML_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(QT_QML_BUILD) -j2 --target insetdqml

install: install-qt-qml
install-qt-qml: qt-qml
	@[ -n "$(QT_QMLDIR)" ] || { echo "install: qtpaths6 is missing (qt6-base-dev): set QT_QMLDIR" >&2; exit 1; }
	$(INSTALL) -d $(DESTDIR)$(QT_QMLDIR)/Insetd
	$(INSTALL) -m 0644 $(addprefix $(QT_QML_BUILD)/Insetd/,$(QT_QML_FILES)) $(DESTDIR)$(QT_QMLDIR)/Insetd/

uninstall: uninstall-qt-qml
uninstall-qt-qml:
	rm -f $(addprefix $(DESTDIR)$(QT_QMLDIR)/Insetd/,$(QT_QML_FILES))
	-rmdir $(DESTDIR)$(QT_QMLDIR)/Insetd 2>/dev/null
