# swizzlescope - `make` builds, `make run` serves on 127.0.0.1:8080,
# `make test` runs every test (installing what is missing), `make clean`.

CC      ?= cc
PKGS    := libmicrohttpd libcjson
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

CORE    := error buf instr swizzle access pattern expr cache
SERVER  := $(CORE) measure api_read api_layout api_access api_measure api files addr framing watch http
SRC_H   := $(wildcard server/*.h)

BIN     := build/swizzlescope
OBJ     := $(SERVER:%=build/obj/%.o) build/obj/main.o
ASAN_OBJ := $(SERVER:%=build/asan/%.o)
TESTS   := test_swizzle test_access test_api test_http test_measure test_tool test_expr test_cache \
           test_main test_framing

.PHONY: all run test clean deps deps-test check-unit check-browser
all: $(BIN)

deps:
	@sh scripts/deps.sh build

deps-test:
	@sh scripts/deps.sh test

build/obj/%.o: server/%.c $(SRC_H) | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -c $< -o $@

build/asan/%.o: server/%.c $(SRC_H) | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) -c $< -o $@

$(BIN): $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(PKG_LIBS) -lm

# The server built with sanitizers, for the HTTP and browser tests.
build/asan/swizzlescope: $(ASAN_OBJ) build/asan/main.o
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) -lm

# tests/client.c is the one HTTP client and API driver every C test shares.
build/test/%: tests/%.c tests/client.c $(wildcard tests/*.h) $(ASAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) -o $@ $< tests/client.c $(ASAN_OBJ) \
	    $(PKG_LIBS) -lm -lpthread

# The live measurement tool, built wherever nvcc exists (CI has nvcc and no
# GPU: it must compile there).  sm_80..sm_90 SASS plus compute_90 PTX.
NVCC       ?= nvcc
HAVE_NVCC  := $(shell command -v $(NVCC) 2>/dev/null)
TOOL       := build/swizzlescope-measure
TOOL_SRC   := $(wildcard cuda/*.cu cuda/*.c)
CUDA_ARCHS := -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 \
              -gencode arch=compute_89,code=sm_89 -gencode arch=compute_90,code=sm_90 \
              -gencode arch=compute_90,code=compute_90
ifneq ($(HAVE_NVCC),)
all: $(TOOL)
test: $(TOOL)
$(TOOL): $(TOOL_SRC) $(wildcard cuda/*.h) server/swizzle.h server/error.h
	@mkdir -p $(@D)
	$(NVCC) -O3 -std=c++17 $(CUDA_ARCHS) -Xcompiler -Wall,-Wextra -o $@ $(TOOL_SRC)
else
all:
	@echo "build/swizzlescope-measure not built: nvcc not found (live GPU measurement needs the CUDA toolkit)"
endif

# Host-only tests of the tool's input, CSV and process code.
build/test/test_tool: tests/gpu/test_tool.c $(wildcard tests/*.h) $(wildcard cuda/*.c cuda/*.h)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) -o $@ tests/gpu/test_tool.c cuda/jsonin.c cuda/pattern.c cuda/ncu.c cuda/proc.c -lm

run: all
	./$(BIN) --port 8080

# The fuzz corpora replay as regression tests (build/fuzz-replay/*, mk/extra.mk).
test: deps-test $(TESTS:%=build/test/%) build/asan/swizzlescope $(BIN) \
      build/fuzz-replay/fuzz_api build/fuzz-replay/fuzz_expr
	@sh tests/run_all.sh $(TESTS:%=build/test/%)

clean:
	rm -rf build

include mk/extra.mk
