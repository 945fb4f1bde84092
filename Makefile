# pmctrace — plain GNU Makefile.  See README.md for the two set-up commands.
#
#   make            build ./pmctrace
#   make deps       install the Debian packages we need (root), or print the line
#   make test       deps + build + unit + end-to-end tests, then again under ASan+UBSan
#   make test-stress the plain pass with every CPU saturated (STRESS_RUNS=3)
#   make run        deps + build + profile the whole machine for 5 s
#   make bench      side-by-side benchmarks against perf and bpftrace
#   make install PREFIX=/usr/local ; make clean

PREFIX  ?= /usr/local
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WERROR  ?= $(if $(CI),-Werror,)
WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes $(WERROR)
CPPFLAGS += -D_GNU_SOURCE -I. $(EXTRA_CPPFLAGS)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(SAN)
LDLIBS  := -lpfm -lbpf -ldw -lelf -lnuma -lzstd -lz -lcapstone -lm -lpthread
BUILD   ?= build

DEB_PKGS := gcc make libpfm4-dev libelf-dev libdw-dev libnuma-dev libcunit1-dev libcapstone-dev \
            zlib1g-dev libzstd-dev pkg-config cpp linux-perf bpftrace elfutils groff-base \
            libbpf-dev clang python3 valgrind

MODULES := dcons dcore pmu sampler ringbuf symbolizer bpf providers cli
LIB_SRCS := $(filter-out cli/main.c %.bpf.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c $(m)/*/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
ifneq ($(wildcard pmu/hwdb_gen.sh),)
LIB_OBJS += $(BUILD)/gen/hwdb_data.o
endif
HWDB_SRCS := $(wildcard hwdb/*.txt)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TEST_HELPERS := $(wildcard tests/helpers/*.c)
HELPER_BINS := $(TEST_HELPERS:tests/helpers/%.c=$(BUILD)/helpers/%)

.PHONY: all deps test test-plain test-asan test-stress unit e2e run bench install clean fuzz

all: pmctrace

pmctrace: $(BUILD)/pmctrace
	cp $< $@

$(BUILD)/pmctrace: $(BUILD)/cli/main.o $(BUILD)/libpmctrace.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libpmctrace.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# hwdb/*.txt is data; pmu/hwdb_gen.sh turns it into C that is never edited by hand.
$(BUILD)/gen/hwdb_data.c: $(HWDB_SRCS) pmu/hwdb_gen.sh
	@mkdir -p $(dir $@)
	sh pmu/hwdb_gen.sh $(HWDB_SRCS) > $@.tmp && mv $@.tmp $@

# bpf/NAME.bpf.c is kernel code: clang compiles it once, CO-RE relocates it
# against the running kernel's BTF at load, and bpf/kb_objs.c embeds it.
BPF_CLANG ?= clang
# the multiarch include dir (asm/types.h), whatever CC calls the target
BPF_ARCH_INC := $(firstword $(wildcard /usr/include/$(shell $(CC) -dumpmachine) /usr/include/$(shell uname -m)-linux-gnu))
BPF_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard bpf/*.bpf.c))
$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c bpf/kbpf.h
	@mkdir -p $(dir $@)
	$(BPF_CLANG) -target bpf -O2 -g -Wall $(WERROR) -I. $(addprefix -I,$(BPF_ARCH_INC)) -c -o $@ $<
$(BUILD)/bpf/kb_objs.o: $(BPF_OBJS)
$(BUILD)/bpf/kb_objs.o: CPPFLAGS += -DKB_OBJDIR='"$(BUILD)/bpf"'

# A unit test links only the objects of its module and the modules below it,
# so one module's tests build while another module is mid-change.  The module
# is the word after test_ in the file name (test_pmu_names.c -> pmu).
TEST_DEPS_dcons      := dcons
TEST_DEPS_dcore      := dcore dcons
TEST_DEPS_pmu        := pmu gen
TEST_DEPS_ringbuf    := ringbuf
TEST_DEPS_sampler    := sampler ringbuf
TEST_DEPS_symbolizer := symbolizer
TEST_DEPS_bpf        := bpf sampler ringbuf
TEST_DEPS_providers  := dcons dcore pmu sampler ringbuf symbolizer bpf providers gen
TEST_DEPS_cli        := $(MODULES) gen
test_module = $(firstword $(subst _, ,$(1)))
test_objs = $(filter $(foreach d,$(TEST_DEPS_$(call test_module,$(1))),$(BUILD)/$(d)/%),$(LIB_OBJS))

.SECONDEXPANSION:
$(BUILD)/tests/test_%: tests/unit/test_%.c $$(call test_objs,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(call test_objs,$*) $(LDLIBS) -lcunit

HELPER_LIBS_pmct_perfgen := -lzstd
$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -std=gnu11 -O1 -g -fno-omit-frame-pointer -Wall -o $@ $< -lpthread $(HELPER_LIBS_$*)

# perf.data files no recording here can give (attr size 136, hybrid types,
# group reads with LOST, zstd, pipe mode): tests/helpers/pmct_perfgen writes
# them; the tests find them in $(GEN_FIXTURES) (tests/fixtures/perfdata/README.md).
GEN_FIXTURES := $(BUILD)/fixtures
$(GEN_FIXTURES)/stamp: $(BUILD)/helpers/pmct_perfgen
	@mkdir -p $(dir $@)
	$< $(dir $@) && touch $@
$(BUILD)/tests/test_sampler_file: $(GEN_FIXTURES)/stamp

# Fuzzing: tests/fuzz/fuzz_<module>_<what>.c is a libFuzzer target linked like
# a unit test of <module>.  `make fuzz` builds them with clang in build-fuzz/
# and runs each for FUZZ_SECONDS (tests/fuzz/run.sh); replay_<module>_<what>
# runs the same target over its seeds and crash reproducers in `make test`.
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
REPLAY_BINS := $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=$(BUILD)/tests/replay_%)
$(BUILD)/tests/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c $$(call test_objs,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DREPLAY_TARGET='"fuzz_$*"' -o $@ $(filter %.c,$^) $(call test_objs,$*) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(call test_objs,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(call test_objs,$*) $(LDLIBS)

fuzz:
	@sh tests/deps.sh clang libclang-rt-14-dev
	$(MAKE) BUILD=build-fuzz CC=clang OPT=-O1 \
	  SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  $(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/fuzz/%)
	sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

-include $(LIB_OBJS:.o=.d) $(BUILD)/cli/main.d

deps:
	@sh tests/deps.sh $(DEB_PKGS)

unit: $(UNIT_BINS) $(HELPER_BINS) $(GEN_FIXTURES)/stamp	# test_symbolizer runs helpers/symtarget
	@sh tests/run_unit.sh $(BUILD) $(UNIT_BINS)

e2e: $(BUILD)/pmctrace $(HELPER_BINS) $(GEN_FIXTURES)/stamp
	@sh tests/run_e2e.sh $(BUILD)

# One pass: build, every unit test, every end-to-end test, one summary line.
test-plain: $(BUILD)/pmctrace $(UNIT_BINS) $(REPLAY_BINS) $(HELPER_BINS) $(GEN_FIXTURES)/stamp
	@sh tests/run_all.sh $(BUILD) $(UNIT_BINS) $(REPLAY_BINS)

test-asan:
	$(MAKE) BUILD=build-asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  test-plain

test: deps
	@$(MAKE) --no-print-directory test-plain
	@$(MAKE) --no-print-directory test-asan
	@cat build/test-summary build-asan/test-summary | awk '{p+=$$1; f+=$$3} END {print "total:", p, "passed,", f, "failed"; exit f>0}'

# The same pass while busy loops keep every CPU saturated (tests/stress.sh):
# live tests must hold on a loaded machine.  STRESS_RUNS=3 runs it three
# times in a row; STRESS_TARGET=test-asan, or STRESS_TARGET=e2e E2E="NAME ..."
# for a few end-to-end tests.  Built first, then loaded.
STRESS_RUNS ?= 1
STRESS_TARGET ?= test-plain
test-stress: deps $(BUILD)/pmctrace $(UNIT_BINS) $(REPLAY_BINS) $(HELPER_BINS) $(GEN_FIXTURES)/stamp
	@sh tests/stress.sh $(STRESS_RUNS) $(MAKE) --no-print-directory $(STRESS_TARGET)

# The main job: record the whole machine for 5 s while printing the ten
# hottest stacks, then replay the recording into a flame graph.
RUN_DATA ?= pmctrace-run.data
run: deps pmctrace
	@sh tests/mount_tracefs.sh
	@rm -f $(RUN_DATA)
	./pmctrace -E $(RUN_DATA) -x stackframes=12 -x ustackframes=12 -x aggsize=64m -q \
	  -n 'profile-997 { @[execname, stack(), ustack()] = count(); } tick-5s { trunc(@, 10); exit(0); }'
	./pmctrace -E $(RUN_DATA) -x stackframes=16 -x ustackframes=16 -x aggsize=64m -q -n 'profile-* { @[execname, stack(), ustack()] = count(); }' -o pmctrace-run.svg
	@echo "flame graph: pmctrace-run.svg (recording: $(RUN_DATA), readable by perf report too)"

bench: deps pmctrace
	$(MAKE) -C bench

install: pmctrace
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/pmctrace/dscripts
	install -m 755 pmctrace $(DESTDIR)$(PREFIX)/bin/pmctrace
	if [ -f docs/pmctrace.1 ]; then install -m 644 docs/pmctrace.1 $(DESTDIR)$(PREFIX)/share/man/man1/; fi
	for f in dscripts/*.d; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/pmctrace/dscripts/; done; true

clean:
	rm -rf build build-asan pmctrace pmctrace-run.data pmctrace-run.svg
	-$(MAKE) -C bench clean 2>/dev/null
