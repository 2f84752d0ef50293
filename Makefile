# readprofile - read the kernel's tick profile and attribute it to symbols.
#
#   make                 build ./readprofile
#   make check           build and run every test suite (short random sweeps)
#   make check-long      the long random sweeps (unit, differential, ext)
#   make check-sanitize  check and check-long on an ASan+UBSan build (build-san/)
#   make check-valgrind  the golden CLI, hostile-input and kernel tests under valgrind
#   make fuzz            run each libFuzzer harness for FUZZ_TIME seconds
#   make bench           side-by-side benchmark against util-linux
#   make check-vm        boot a real kernel under qemu and test on /proc/profile
#   make demo            run readprofile on the bundled real-kernel snapshot
#   make install         install into $(DESTDIR)$(PREFIX)

VERSION    = 1.0
PREFIX    ?= /usr/local
SBINDIR   ?= $(PREFIX)/sbin
MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL   ?= install

CFLAGS    ?= -O2 -g
WARNFLAGS  = -std=c11 -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
             -Wmissing-prototypes -Wvla -Wno-format-nonliteral $(WERROR)
ALL_CPPFLAGS = -D_GNU_SOURCE -DRP_VERSION='"$(VERSION)"' -Isrc $(CPPFLAGS)
ALL_CFLAGS = $(WARNFLAGS) $(CFLAGS)

# Object directory and binary; check-sanitize builds a second tree.
B   ?= build
BIN ?= readprofile

LIB_SRCS = $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/%.o)
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
HDRS = $(wildcard src/*.h)

# Rebuild everything when the compiler or its flags change (a sanitizer
# build after a plain one must not reuse the plain objects).
FLAGS_NOW := $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS)
ifneq ($(FLAGS_NOW),$(file <$(B)/flags))
$(shell mkdir -p $(B))
$(file >$(B)/flags,$(FLAGS_NOW))
endif

all: $(BIN)

$(BIN): $(B)/main.o $(B)/librp.a $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(B)/main.o $(B)/librp.a $(LDLIBS)

$(B)/librp.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(B)/%.o: src/%.c $(HDRS) $(B)/flags | $(B)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B) $(B)/tests:
	mkdir -p $@

# Unit tests (cmocka).
$(B)/tests/%: tests/unit/%.c tests/unit/unit.h $(B)/librp.a $(HDRS) $(B)/flags | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/librp.a -lcmocka $(LDLIBS)

# Helpers for the differential and golden tests.
$(B)/tests/gen: tests/diff/gen.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/model: tests/diff/model.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<
$(B)/tests/proftool: tests/ext/proftool.c | $(B)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

check-deps:
	@sh tests/need-cmocka.sh

check: check-deps
	@$(MAKE) --no-print-directory check-run

TOOLS = GEN=$(abspath $(B)/tests/gen) MODEL=$(abspath $(B)/tests/model) \
	PROFTOOL=$(abspath $(B)/tests/proftool)

# make check runs every suite with its random sweeps cut short; the long
# sweeps (millions of formatted numbers, thousands of differential cases,
# hundreds of random maps and baselines) are make check-long's.
CHECK_SIZES = FMT_ITERATIONS=400000 DIFF_CASES=30 EXT_SEEDS=60 EXT_BASE_SEEDS=8
LONG_SIZES  = FMT_ITERATIONS=4000000 DIFF_CASES=150 EXT_SEEDS=300 EXT_BASE_SEEDS=40
RUN_RP = RP=$(abspath $(BIN)) $(TOOLS)

check-run: $(BIN) $(UNIT_BINS) $(B)/tests/gen $(B)/tests/model $(B)/tests/proftool
	@sh tests/check.sh \
	    unit '$(CHECK_SIZES) sh tests/unit/run.sh $(UNIT_BINS)' \
	    cli '$(RUN_RP) sh tests/cli/run.sh' \
	    completion 'sh tests/completion.sh' \
	    diff '$(CHECK_SIZES) $(RUN_RP) sh tests/diff/run.sh' \
	    ext '$(CHECK_SIZES) $(RUN_RP) sh tests/ext/run.sh' \
	    hostile '$(RUN_RP) sh tests/hostile/run.sh' \
	    kernel '$(RUN_RP) sh tests/kernel/run.sh' \
	    setuid 'sh tests/setuid/run.sh'

check-long: check-deps
	@$(MAKE) --no-print-directory check-long-run

check-long-run: $(BIN) $(UNIT_BINS) $(B)/tests/gen $(B)/tests/model $(B)/tests/proftool
	@sh tests/check.sh \
	    unit-long '$(LONG_SIZES) sh tests/unit/run.sh $(B)/tests/test_fmt' \
	    diff-long '$(LONG_SIZES) $(RUN_RP) sh tests/diff/run.sh' \
	    ext-long '$(LONG_SIZES) $(RUN_RP) sh tests/ext/run.sh'

SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
check-sanitize: check-deps
	@$(MAKE) --no-print-directory B=build-san BIN=build-san/readprofile \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer $(SAN)" LDFLAGS="$(SAN)" \
	    check-run check-long-run

VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
check-valgrind: $(BIN)
	@sh tests/check.sh \
	    cli-valgrind 'RP=$(abspath $(BIN)) RP_WRAP="$(VALGRIND)" sh tests/cli/run.sh' \
	    hostile-valgrind 'RP=$(abspath $(BIN)) RP_WRAP="$(VALGRIND)" HOSTILE_TIMEOUT=120 sh tests/hostile/run.sh' \
	    kernel-valgrind 'RP=$(abspath $(BIN)) RP_WRAP="$(VALGRIND)" sh tests/kernel/run.sh'

check-hostile: $(BIN)
	@RP=$(abspath $(BIN)) sh tests/hostile/run.sh

check-setuid:
	@sh tests/setuid/run.sh

FUZZ_TIME ?= 60
fuzz:
	@sh fuzz/run.sh $(FUZZ_TIME)

bench: $(BIN)
	@sh bench/run.sh

check-vm:
	@sh tests/vm/run.sh

demo: $(BIN)
	@sh tests/demo.sh $(abspath $(BIN))

install: $(BIN)
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/readprofile
	$(INSTALL) -m 0644 man/readprofile.8 $(DESTDIR)$(MANDIR)/man8/readprofile.8
	$(INSTALL) -m 0644 completion/readprofile $(DESTDIR)$(BASHCOMPDIR)/readprofile

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/readprofile $(DESTDIR)$(MANDIR)/man8/readprofile.8 \
	    $(DESTDIR)$(BASHCOMPDIR)/readprofile

clean:
	rm -rf build build-san build-fuzz build-static build-o3 readprofile

.PHONY: all check check-deps check-run check-long check-long-run check-sanitize check-valgrind check-hostile \
	check-setuid fuzz bench \
	check-vm demo install uninstall clean
