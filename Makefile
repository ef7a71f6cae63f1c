# swizzlescope - `make` builds, `make run` serves on 127.0.0.1:8080,
# `make test` runs every test (installing what is missing), `make clean`.

CC      ?= cc
PKGS    := libmicrohttpd libcjson
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O2 -g
# Asked of pkg-config once, on first use: by then `deps` (an order-only
# prerequisite of every object) has installed the packages (a plain `=` asked
# it again for every compile, 265 times a make test: 3 CPU-s).
PKG_CFLAGS = $(eval PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null))$(PKG_LIBS)
# The test programs (not the server binaries) link with gold where binutils
# has it: half the CPU of ld.bfd on these ASan links (0.33 -> 0.19 CPU-s,
# 40 of them a make test).
TEST_LD := $(if $(shell command -v ld.gold 2>/dev/null),-fuse-ld=gold)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The sanitized builds (tests only) keep line tables, not variables: their
# reports still name file:line, and they compile in about 15% less time (the
# build is a third of `make test`).  `make SAN_OPT='-O1 -g'` for gdb's locals.
SAN_OPT ?= -O1 -g1
# The test programs' own code (tables, loops over them, checks) compiles at
# -O0: half the time of -O1 (2.9 against 6.0 CPU-s for the four largest), and
# they ran the C suites in the same CPU time; the code under test keeps SAN_OPT.
TEST_OPT ?= -O0 -g1

# The server's folders, lowest layer first (tests/layers.py holds the rule
# between them); every .c file in them is part of the server.
SERVER_DIRS := base model linear triton layout recommend ptx api net
SERVER_SRC  := $(foreach d,$(SERVER_DIRS),$(wildcard server/$(d)/*.c))
SERVER  := $(SERVER_SRC:server/%.c=%)
# Every compile sees server/ as the include root ("base/error.h") and writes
# the headers it read (-MMD -MP), which the -include at the end loads.
INC     := -Iserver
DEP     := -MMD -MP
# The C tests in three tiers (tests/unit: the core; tests/api: answers through
# api_handle; tests/net: a real server, sockets, processes), sharing the
# harness in tests/ (check.h, client.c): -Itests.
vpath test_%.c tests/unit tests/api tests/net
TINC    := $(INC) -Itests

BIN     := build/swizzlescope
# swizzlescope-ptx: a kernel's PTX costed from the command line (ptx/ and
# what it includes: model/, base/; api/ptx_json.c for --json, which writes
# with buf.c: no cJSON, no libmicrohttpd).
PTX_BIN := build/swizzlescope-ptx
PTX_OBJ := $(filter build/obj/base/% build/obj/model/% build/obj/ptx/%,$(SERVER:%=build/obj/%.o)) \
           build/obj/api/ptx_json.o build/obj/ptx_main.o
OBJ     := $(SERVER:%=build/obj/%.o) build/obj/main.o
ASAN_OBJ := $(SERVER:%=build/asan/%.o)
TESTS   := test_swizzle test_access test_api test_http test_measure test_tool test_crosscheck \
           test_proc test_expr test_cache test_main test_f2 test_linear test_framing test_layout test_atoms \
           test_stream test_stream_answers test_bits test_recommend test_tma test_contract test_triton test_cute test_ncu \
           test_firstscreen test_nvcc test_ptx_parse test_ptx_exec test_ptx_cost test_ptx_corpus test_api_ptx \
           test_ptx_cli test_sha256

.PHONY: all run test clean deps deps-test check-unit check-browser check-node
all: $(BIN) $(PTX_BIN)

deps:
	@sh scripts/deps.sh build

deps-test:
	@sh scripts/deps.sh test

# The object folders, made by one command before the first object (a
# `mkdir -p` in each of 220 recipes cost 1.7 CPU-s a make test); again when
# the Makefile changes (a new folder in SERVER_DIRS).  Other rules make their own.
build/.dirs: Makefile
	@mkdir -p $(sort $(dir $(OBJ) $(ASAN_OBJ))) && touch $@

build/obj/%.o: server/%.c | deps build/.dirs
	$(CC) $(WARN) $(CFLAGS) $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

build/asan/%.o: server/%.c | deps build/.dirs
	$(CC) $(WARN) $(SAN_OPT) $(SAN) $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

$(BIN): $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(PKG_LIBS) -lm

$(PTX_BIN): $(PTX_OBJ)
	$(CC) $(CFLAGS) -o $@ $(PTX_OBJ) -lm

# test_ptx_cli runs the command it checks.
build/test/test_ptx_cli: $(PTX_BIN)

# The server built with sanitizers, for the HTTP and browser tests.
build/asan/swizzlescope: $(ASAN_OBJ) build/asan/main.o
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) -lm

# tests/client.c is the one HTTP client and API driver every C test shares.
build/test/client.o: tests/client.c | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(SAN_OPT) $(SAN) $(TINC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

build/test/test_%: test_%.c build/test/client.o $(ASAN_OBJ)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) $(TINC) $(DEP) $(PKG_CFLAGS) -o $@ $< build/test/client.o $(ASAN_OBJ) \
	    $(PKG_LIBS) -lm -lpthread

# test_http with api.c built with SZ_TEST_GATE (api.h: a gate every costly
# request waits at until the test opens it), so that it can hold more of them
# than there are event threads and show /api/health answering meanwhile.  Test
# only: the gate is in no other object, so in no server binary.
build/hook/api/api.o: server/api/api.c | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(SAN_OPT) $(SAN) -DSZ_TEST_GATE $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

build/test/test_http: tests/net/test_http.c build/test/client.o build/hook/api/api.o \
        $(filter-out build/asan/api/api.o,$(ASAN_OBJ))
	@mkdir -p $(@D)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) -DSZ_TEST_GATE $(TINC) $(DEP) $(PKG_CFLAGS) -o $@ $(filter %.c %.o,$^) \
	    $(PKG_LIBS) -lm -lpthread

# The live measurement tool, built wherever nvcc exists (CI has nvcc and no
# GPU: it must compile there), one object per source so that make -j spreads
# it.  The .cu files with kernels (TOOL_DEVICE) carry sm_80..sm_90 SASS plus
# compute_90 PTX; probe.cu and ptxrun.cu hold no device code (they launch and
# load, through the runtime and the driver) and carry only an empty
# compute_80 PTX module, which any of those GPUs can load: every architecture
# for them was a third of the tool's 40 CPU-s.  The C files are compiled as
# the server's are: the tool's own (cuda/*.c) and the server's release
# objects that hold the instruction schema, its JSON readers, the process
# runner and the ncu CSV reader (TOOL_SERVER), so that it accepts exactly
# what the API does.
NVCC        ?= nvcc
HAVE_NVCC   := $(shell command -v $(NVCC) 2>/dev/null)
TOOL        := build/swizzlescope-measure
TOOL_SERVER := model/instr api/instr_json model/atomic_form api/api_read base/error model/swizzle base/proc \
               model/ncu_csv
TOOL_DEVICE := kernels tma verify
TOOL_OBJ    := $(patsubst cuda/%,build/cuda/%.o,$(basename $(wildcard cuda/*.cu cuda/*.c))) \
               $(TOOL_SERVER:%=build/obj/%.o)
CUDA_ARCHS  := -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 \
               -gencode arch=compute_89,code=sm_89 -gencode arch=compute_90,code=sm_90 \
               -gencode arch=compute_90,code=compute_90
CUDA_HOST   := -gencode arch=compute_80,code=compute_80
ifneq ($(HAVE_NVCC),)
all: $(TOOL)
test-build: $(TOOL)
build/cuda/%.o: cuda/%.cu | deps
	@mkdir -p $(@D)
	$(NVCC) -O3 -std=c++17 $(if $(filter $(TOOL_DEVICE),$*),$(CUDA_ARCHS),$(CUDA_HOST)) $(INC) \
	    -Xcompiler -Wall,-Wextra -MMD -MP -MF $(@:.o=.d) -MT $@ -c $< -o $@
build/cuda/%.o: cuda/%.c | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@
$(TOOL): $(TOOL_OBJ)
	$(NVCC) -o $@ $(TOOL_OBJ) -lcjson -lm
else
all:
	@echo "build/swizzlescope-measure not built: nvcc not found (live GPU measurement needs the CUDA toolkit)"
endif

# Host-only tests of the tool's input, CSV and process code (no nvcc needed):
# the tool's C files and TOOL_SERVER, sanitized as the server's objects are.
build/asan/cuda/%.o: cuda/%.c | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(SAN_OPT) $(SAN) $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

TOOL_ASAN := $(patsubst cuda/%.c,build/asan/cuda/%.o,$(wildcard cuda/*.c)) $(TOOL_SERVER:%=build/asan/%.o)
build/test/test_tool: tests/gpu/test_tool.c $(TOOL_ASAN)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) $(TINC) $(DEP) $(PKG_CFLAGS) -o $@ $< $(TOOL_ASAN) \
	    $(PKG_LIBS) -lm

# The server's /api/measure and the tool's input code (built as in test_tool,
# and the real binary where it is built) over one table of instruction bodies.
build/test/test_crosscheck: tests/api/test_crosscheck.c build/test/client.o build/asan/cuda/input.o $(ASAN_OBJ)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) $(TINC) $(DEP) $(PKG_CFLAGS) -o $@ $(filter %.c %.o,$^) \
	    $(PKG_LIBS) -lm -lpthread

run: all
	./$(BIN) --port 8080

# The fuzz corpora replay as regression tests (build/fuzz-replay/*, mk/extra.mk).
# make test builds with every CPU (a sub-make with -j: the build is half of
# the run on a 2-CPU machine), then runs the suites.
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) test-build
	@bash tests/run_all.sh $(TESTS:%=build/test/%)

.PHONY: test-build
test-build: $(TESTS:%=build/test/%) build/asan/swizzlescope $(BIN) $(PTX_BIN) \
      build/fuzz-replay/fuzz_api build/fuzz-replay/fuzz_expr build/fuzz-replay/fuzz_layout \
      build/test/test_census build/plain/test_census build/plain/test_recommend build/plain/test_stream_answers \
      build/plain/test_access

# The page's pure modules under node (also part of `make test`); api.test.mjs
# checks their lists against the server's answers.
check-node: $(BIN)
	@node tests/node/run.mjs

clean:
	rm -rf build

# Test programs without sanitizers, -O2: the long sweeps whole (make test
# runs their small form under the sanitizers: tests/run_all.sh SWEEPS),
# issue 36's census (tests/api/test_census.c), and seed 001's whole toggle grid
# (2^20 memory layouts, formula = simulation; make test walks 2^15 of them
# plus a stride in test_linear.c).  They link the release objects (build/obj,
# -O2 -g) that the server binary is made of: the code they test is the code
# that ships, and make test compiles the server twice, not three times.
build/plain/test_%: test_%.c tests/client.c $(wildcard tests/*.h tests/unit/*.h) $(SERVER:%=build/obj/%.o)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g $(TEST_LD) $(TINC) $(PKG_CFLAGS) -o $@ $< tests/client.c $(SERVER:%=build/obj/%.o) \
	    $(PKG_LIBS) -lm -lpthread

# The browser test's pictures that check nothing (the pages at 1440 and 390 px,
# dark, presenter, the kernel and layout views) into build/screenshots/: the
# same checks with SWZ_SHOTS=1.  make test leaves the pictures out (about a
# fifth of the browser test's CPU); the README's two, which it checks, it takes.
.PHONY: shots
shots: deps-test build/asan/swizzlescope $(if $(HAVE_NVCC),$(TOOL))
	SWZ_SHOTS=1 SWZ_BIN=build/asan/swizzlescope sh tests/browser/run.sh

.PHONY: census
census: build/plain/test_census
	CENSUS_VIEWS=$${CENSUS_VIEWS:-50} build/plain/test_census

.PHONY: linear-sweep
linear-sweep: build/plain/test_linear
	SWZ_FULL_SWEEP=1 build/plain/test_linear

include mk/extra.mk

# The headers each object, test and tool read (written by -MMD -MP).
-include $(shell find build -name '*.d' 2>/dev/null)
