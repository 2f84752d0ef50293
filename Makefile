# readprofile - read the kernel's tick profile and attribute it to symbols.
#
#   make                 build ./readprofile
#   make check           build and run every test suite (short random sweeps)
#   make check-long      the long random sweeps (unit, differential, extensions)
#   make check-sanitize  check and check-long on an ASan+UBSan build (build-san/)
#   make check-valgrind  the golden CLI, hostile-input and kernel tests under valgrind
#   make check-gen       util-linux under valgrind on the differential generator's inputs
#   make check-elf-sweep every ELF file of the system: symbols as nm lists them
#   make check-vmlinux   a Debian kernel's vmlinux against its System.map (downloads)
#   make fuzz            run each libFuzzer harness for FUZZ_TIME seconds
#   make bench           side-by-side benchmark against util-linux
#   make check-vm        boot real kernels (4 architectures) under qemu, test /proc/profile
#   make check-cross     build for s390x (big-endian) and test under qemu-s390x-static
#   make check-m32       build for 32-bit x86 and test under qemu-i386-static
#   make demo            run readprofile on the bundled real-kernel snapshot
#   make install         install what make built into $(DESTDIR)$(PREFIX), as $(PROGRAM)
#   make check-install   test make install and make uninstall
#   make dist            write readprofile-$(VERSION).tar.gz (reproducible)
#   make distcheck       build, check, install and uninstall from that tarball
#   make check-repro     same tarball twice, same binary from two build paths

# The one place the version is written: the file VERSION (make dist writes
# it into the tarball; `make VERSION=x` overrides it).
VERSION   := $(strip $(file <VERSION))
ifeq ($(VERSION),)
$(error no version: the file VERSION is missing or empty)
endif
PREFIX    ?= /usr/local
SBINDIR   ?= $(PREFIX)/sbin
MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL   ?= install

CFLAGS    ?= -O2 -g
WARNFLAGS  = -std=c11 -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
             -Wmissing-prototypes -Wvla -Wno-format-nonliteral $(WERROR)
ALL_CPPFLAGS = -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DRP_VERSION='"$(VERSION)"' -Isrc $(CPPFLAGS)
ALL_CFLAGS = $(WARNFLAGS) $(PREFIX_MAP) $(CFLAGS)
# REPRO=1: the same binary from any checkout directory: the build path is
# mapped to "." in debug information and __FILE__, when the compiler can
# (make check-repro builds so).  By default the debug information keeps
# the build directory, which distributions' debug-source tools (Fedora's
# find-debuginfo, Debian's dh_dwz and debugedit) read and rewrite.
PREFIX_MAP := $(if $(REPRO),$(shell $(CC) -ffile-prefix-map=/a=. -E -x c /dev/null >/dev/null 2>&1 && \
	echo '-ffile-prefix-map=$(CURDIR)=.'))

# Object directory and binary; check-sanitize builds a second tree.
B   ?= build
BIN ?= readprofile

# src/ is in folders by role (src/README.md); objects keep the folders.
LIB_SRCS = $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/%.o)
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
HDRS = $(wildcard src/*/*.h)

# Rebuild everything when the compiler or its flags change (a sanitizer
# build after a plain one must not reuse the plain objects).
# Goals that never build (install takes what `make` built) leave it alone.
NOBUILD_GOALS = install uninstall clean dist distcheck check-install check-repro
FLAGS_NOW := $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS)
ifneq ($(if $(MAKECMDGOALS),$(filter-out $(NOBUILD_GOALS),$(MAKECMDGOALS)),all),)
ifneq ($(FLAGS_NOW),$(file <$(B)/flags))
$(shell mkdir -p $(B))
$(file >$(B)/flags,$(FLAGS_NOW))
endif
endif

all: $(BIN)

$(BIN): $(B)/cli/main.o $(B)/librp.a $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(B)/cli/main.o $(B)/librp.a $(LDLIBS)

$(B)/librp.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(B)/%.o: src/%.c $(HDRS) $(B)/flags | $(B)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B) $(B)/tests:
	mkdir -p $@

# Unit tests (cmocka; UNIT_LDFLAGS: cmocka has no static library).
UNIT_LDFLAGS ?= $(LDFLAGS)
$(B)/tests/%: tests/unit/%.c tests/unit/unit.h $(B)/librp.a $(HDRS) $(B)/flags | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(UNIT_LDFLAGS) -o $@ $< $(B)/librp.a -lcmocka $(LDLIBS)

# Helpers for the differential and golden tests.
$(B)/tests/gen: tests/differential/gen.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/model: tests/differential/model.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/proftool: tests/extensions/proftool.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/gmontool: tests/gmon/gmontool.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
# The program with a 1 MiB input cap (base/cap.c), for the cap's tests.
$(B)/tests/readprofile-cap: $(B)/cli/main.o $(B)/librp.a src/base/cap.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -DINPUT_CAP='((uint64_t)1 << 20)' \
	    -c -o $(B)/tests/cap.o src/base/cap.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(B)/cli/main.o $(B)/tests/cap.o \
	    $(B)/librp.a $(LDLIBS)
$(B)/tests/antiqsort: tests/adversarial/antiqsort.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
# What this C library says (strerror, getopt), for the expected messages.
$(B)/tests/libctext: tests/libctext.c $(B)/flags | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
# Changes an input's size at the Nth read or write of a run (ptrace).
$(B)/tests/trunc_at: tests/shrink/trunc_at.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/symdump: tests/elf/symdump.c $(B)/librp.a $(HDRS) | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/librp.a $(LDLIBS)

# cmocka: installed by need-cmocka.sh when missing (as root, outside a
# package build); with a compiler it cannot serve (musl-gcc) the unit suite
# is skipped with a line saying so (exit 3 below).
check-deps:
	@CC='$(CC)' sh tests/need-cmocka.sh

# The check targets build quietly (-s: warnings and errors only) and show
# a line per suite, and a failing suite's whole output (tests/check.sh).
check:
	@CC='$(CC)' sh tests/need-cmocka.sh; rc=$$?; \
	if [ $$rc = 3 ]; then \
	    $(MAKE) -s --no-print-directory check-run UNIT_SKIP="cmocka not usable with $(CC)"; \
	elif [ $$rc = 0 ]; then $(MAKE) -s --no-print-directory check-run; else exit 1; fi

TOOLS = GEN=$(abspath $(B)/tests/gen) MODEL=$(abspath $(B)/tests/model) \
	PROFTOOL=$(abspath $(B)/tests/proftool) \
	GMONTOOL=$(abspath $(B)/tests/gmontool)
# Suites that tests/check.sh runs at once (CHECK_JOBS=1: one after the
# other; CHECK_VERBOSE=1 shows each one's output, not only its line).  The
# longest are listed first, to start first.
CHECK_JOBS ?= 2
export CHECK_JOBS
# Expected texts that depend on the build: the version, the C library's.
export RP_VERSION := $(VERSION)
export LIBCTEXT = $(abspath $(B)/tests/libctext)

# make check runs every suite with its random sweeps cut short; the long
# sweeps (millions of formatted numbers, thousands of differential cases,
# hundreds of random maps and baselines) are make check-long's.
CHECK_SIZES = FMT_ITERATIONS=400000 DIFF_CASES=30 EXT_SEEDS=60 EXT_BASE_SEEDS=8
LONG_SIZES  = DIFF_CASES=150 EXT_SEEDS=300 EXT_BASE_SEEDS=40
RUN_RP = RP=$(abspath $(BIN)) $(TOOLS)

check-run: $(BIN) $(if $(UNIT_SKIP),,$(UNIT_BINS)) $(B)/tests/gen $(B)/tests/model \
	    $(B)/tests/proftool $(B)/tests/libctext $(B)/tests/symdump \
	    $(B)/tests/gmontool $(B)/tests/trunc_at $(B)/tests/antiqsort \
	    $(B)/tests/readprofile-cap
	@sh tests/check.sh \
	    harness 'sh tests/harness/run.sh' \
	    shrink '$(RUN_RP) TRUNC_AT=$(abspath $(B)/tests/trunc_at) sh tests/shrink/run.sh' \
	    views '$(RUN_RP) sh tests/views/run.sh' \
	    extensions '$(CHECK_SIZES) $(RUN_RP) sh tests/extensions/run.sh' \
	    unit '$(if $(UNIT_SKIP),echo "unit: skipped: $(UNIT_SKIP)",$(CHECK_SIZES) sh tests/unit/run.sh $(UNIT_BINS))' \
	    golden '$(RUN_RP) sh tests/golden/run.sh' \
	    completion 'sh tests/completion.sh' \
	    layout 'sh tests/layout.sh' \
	    docs '$(RUN_RP) sh tests/docs.sh' \
	    differential '$(CHECK_SIZES) $(RUN_RP) sh tests/differential/run.sh' \
	    hostile '$(RUN_RP) sh tests/hostile/run.sh' \
	    elf '$(RUN_RP) SYMDUMP=$(abspath $(B)/tests/symdump) sh tests/elf/run.sh' \
	    kernel '$(RUN_RP) sh tests/kernel/run.sh' \
	    gmon '$(RUN_RP) sh tests/gmon/run.sh' \
	    adversarial '$(RUN_RP) RP_CAP=$(abspath $(B)/tests/readprofile-cap) ANTIQSORT=$(abspath $(B)/tests/antiqsort) SYMDUMP=$(abspath $(B)/tests/symdump) sh tests/adversarial/run.sh' \
	    pprof '$(RUN_RP) sh tests/pprof/run.sh' \
	    debug '$(RUN_RP) sh tests/debug/run.sh' \
	    reads '$(RUN_RP) sh tests/reads/run.sh' \
	    setuid 'sh tests/setuid/run.sh'

check-long: check-deps
	@$(MAKE) -s --no-print-directory check-long-run

check-long-run: $(BIN) $(UNIT_BINS) $(B)/tests/gen $(B)/tests/model $(B)/tests/proftool \
	    $(B)/tests/libctext
	@sh tests/check.sh \
	    differential-long '$(LONG_SIZES) $(RUN_RP) sh tests/differential/run.sh' \
	    extensions-long '$(LONG_SIZES) $(RUN_RP) sh tests/extensions/run.sh'

# The generator's inputs are well defined for util-linux: util-linux run
# under valgrind on GEN_CASES of them (CI runs it).
GEN_CASES ?= 40
check-gen: $(B)/tests/gen
	@sh tests/check.sh check-gen \
	    'GEN=$(abspath $(B)/tests/gen) GEN_CASES=$(GEN_CASES) sh tests/differential/check-gen.sh'

# Every ELF file of the system against nm (slow; CI runs it).
check-elf-sweep: $(B)/tests/symdump
	@SYMDUMP=$(abspath $(B)/tests/symdump) sh tests/elf/sweep.sh

# Time limits and waits in the suites are multiplied by TIME_SCALE (1 by
# default): a sanitized build, valgrind and qemu run several times slower.
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
# setuid may skip one control here: a sanitizer runtime cannot start with
# a stand-in libstdc++.so.6 first in LD_LIBRARY_PATH (tests/setuid, (g)).
check-sanitize: check-deps
	@TIME_SCALE=10 READPROFILE_CHECK_MAY_SKIP="$${READPROFILE_CHECK_MAY_SKIP:-} setuid" $(MAKE) -s --no-print-directory B=build-san BIN=build-san/readprofile \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer $(SAN)" LDFLAGS="$(SAN)" \
	    check-run check-long-run

VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
check-valgrind:
	@$(MAKE) -s --no-print-directory check-valgrind-run
check-valgrind-run: $(BIN) $(B)/tests/libctext $(B)/tests/model
	@TIME_SCALE=10 sh tests/check.sh \
	    golden-valgrind 'RP=$(abspath $(BIN)) MODEL=$(abspath $(B)/tests/model) RP_WRAP="$(VALGRIND)" sh tests/golden/run.sh' \
	    hostile-valgrind 'RP=$(abspath $(BIN)) RP_WRAP="$(VALGRIND)" sh tests/hostile/run.sh' \
	    kernel-valgrind 'RP=$(abspath $(BIN)) RP_WRAP="$(VALGRIND)" sh tests/kernel/run.sh'

check-hostile: $(BIN) $(B)/tests/libctext
	@RP=$(abspath $(BIN)) sh tests/hostile/run.sh

check-setuid: $(B)/tests/libctext
	@sh tests/setuid/run.sh

FUZZ_TIME ?= 60
fuzz:
	@sh fuzz/run.sh $(FUZZ_TIME)

bench: $(BIN) $(B)/tests/antiqsort $(B)/tests/gmontool
	@sh bench/run.sh
	@ANTIQSORT=$(abspath $(B)/tests/antiqsort) GMONTOOL=$(abspath $(B)/tests/gmontool) \
	    sh bench/adversarial.sh
	@sh bench/gmon.sh
	@sh bench/cxx.sh

check-vm:
	@sh tests/vm/run.sh

check-cross:
	@sh tests/cross/run.sh s390x

check-m32:
	@sh tests/cross/run.sh m32

check-vmlinux: $(BIN) $(B)/tests/symdump
	@RP=$(abspath $(BIN)) SYMDUMP=$(abspath $(B)/tests/symdump) sh tests/vmlinux/run.sh

# Built quietly: the demo's output is the report and its legend.
demo:
	@$(MAKE) -s --no-print-directory $(BIN) >/dev/null
	@sh tests/demo.sh $(abspath $(BIN))

# The installed name: PROGRAM=readprofile-ng installs the binary, the man
# pages (NAME.8 and NAME-formats.5: their titles, synopsis and examples,
# by tools/man-name.sh) and the bash completion under that name, so that
# it can sit beside util-linux's readprofile.  The binary's messages, hints
# and usage lines take the name it is run by (argv[0]'s last part), as
# util-linux's do.
PROGRAM ?= readprofile
INSTALL_DIRS = $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
    $(DESTDIR)$(BASHCOMPDIR)

# install never compiles: it installs what `make` built, with the flags
# given to `make`, or stops.
install:
	@case '$(PROGRAM)' in *[!A-Za-z0-9._+-]*|'') \
	    echo "make install: PROGRAM='$(PROGRAM)': use letters, digits, '._+-'" >&2; \
	    exit 1;; esac
	@test -f $(BIN) || { echo "make install: $(BIN) is not built; run 'make' first" >&2; exit 1; }
	@sh tools/install-dirs.sh made $(B)/install-dirs $(INSTALL_DIRS)
	$(INSTALL) -d $(INSTALL_DIRS)
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/$(PROGRAM)
	sh tools/man-name.sh '$(PROGRAM)' '$(VERSION)' < man/readprofile.8 \
	    > $(DESTDIR)$(MANDIR)/man8/$(PROGRAM).8.tmp
	chmod 0644 $(DESTDIR)$(MANDIR)/man8/$(PROGRAM).8.tmp
	mv -f $(DESTDIR)$(MANDIR)/man8/$(PROGRAM).8.tmp $(DESTDIR)$(MANDIR)/man8/$(PROGRAM).8
	sh tools/man-name.sh '$(PROGRAM)' '$(VERSION)' < man/readprofile-formats.5 \
	    > $(DESTDIR)$(MANDIR)/man5/$(PROGRAM)-formats.5.tmp
	chmod 0644 $(DESTDIR)$(MANDIR)/man5/$(PROGRAM)-formats.5.tmp
	mv -f $(DESTDIR)$(MANDIR)/man5/$(PROGRAM)-formats.5.tmp $(DESTDIR)$(MANDIR)/man5/$(PROGRAM)-formats.5
	sed -e 's/^complete -F _readprofile readprofile$$/complete -F _readprofile $(PROGRAM)/' \
	    completion/readprofile > $(DESTDIR)$(BASHCOMPDIR)/$(PROGRAM).tmp
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/$(PROGRAM).tmp
	mv -f $(DESTDIR)$(BASHCOMPDIR)/$(PROGRAM).tmp $(DESTDIR)$(BASHCOMPDIR)/$(PROGRAM)

# uninstall also removes the directories install made (their list in
# $(B)/install-dirs), each once empty; none that was there before.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/$(PROGRAM) $(DESTDIR)$(MANDIR)/man8/$(PROGRAM).8 \
	    $(DESTDIR)$(MANDIR)/man5/$(PROGRAM)-formats.5 $(DESTDIR)$(BASHCOMPDIR)/$(PROGRAM)
	@sh tools/install-dirs.sh remove $(B)/install-dirs $(INSTALL_DIRS)

# The install tests: a hardened build, then a plain `make install`, must
# install that very binary; PROGRAM renames all three files.
check-install:
	@sh tests/install.sh

# The release tarball (see "Cutting a release" in README.md).
DIST = readprofile-$(VERSION).tar.gz
dist:
	@sh tools/dist.sh $(VERSION)
distcheck: dist
	@sh tools/distcheck.sh $(DIST)
# The same bytes from two make dist runs, the same binary from two paths.
check-repro:
	@sh tools/repro.sh

clean:
	rm -rf build build-san build-fuzz build-static build-o3 build-s390x build-m32 build-musl \
	    readprofile readprofile-*.tar.gz

.PHONY: all check check-deps check-run check-long check-long-run check-sanitize check-valgrind \
	check-valgrind-run check-hostile check-gen \
	check-setuid check-elf-sweep check-vmlinux fuzz bench \
	check-vm check-cross check-m32 demo install uninstall check-install dist distcheck check-repro clean
