# swizzlescope - `make` builds, `make run` serves on 127.0.0.1:8080,
# `make test` runs every test (installing what is missing), `make clean`.

CC      ?= cc
PKGS    := libmicrohttpd libcjson
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

CORE    := error buf swizzle access pattern
SERVER  := $(CORE) measure api http
SRC_H   := $(wildcard server/*.h)

BIN     := build/swizzlescope
OBJ     := $(SERVER:%=build/obj/%.o) build/obj/main.o
ASAN_OBJ := $(SERVER:%=build/asan/%.o)
TESTS   := test_swizzle test_access test_api test_http test_measure

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

build/test/%: tests/%.c $(wildcard tests/*.h) $(ASAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) -o $@ $< $(ASAN_OBJ) $(PKG_LIBS) -lm -lpthread

run: all
	./$(BIN) --port 8080

test: deps-test $(TESTS:%=build/test/%) build/asan/swizzlescope $(BIN)
	@sh tests/run_all.sh $(TESTS:%=build/test/%)

clean:
	rm -rf build
