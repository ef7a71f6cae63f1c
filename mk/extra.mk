# mk/extra.mk - fuzzing, corpus replay, valgrind and load-test targets.
# Included at the end of the Makefile (so `all` stays the default goal), after
# SERVER, INC, DEP, WARN, SAN, TEST_OPT, TEST_LD, PKG_CFLAGS, PKG_LIBS and BIN; it writes only
# under build/ and never changes those variables.
#   make fuzz          libFuzzer on each target, FUZZ_SECONDS (default 600) each;
#                      new inputs go to build/fuzz/new_*, crashes to build/fuzz/
#   make fuzz-merge    fold those new inputs, minimized, into tests/fuzz/corpus_*
#   make fuzz-replay   the committed corpora through ASan+UBSan builds of the
#                      targets without libFuzzer (any compiler): a regression test
#   make valgrind      unit tests built without ASan, under valgrind --leak-check=full
#   make bench-load    bench/load.sh: wrk against the server and nginx (LOAD_SECONDS)

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := fuzz_api fuzz_expr fuzz_layout
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# What fuzz_api reaches is the API without the daemon; fuzz_expr needs expr.
# sort also drops the duplicate once SERVER lists expr itself.
FUZZ_UNITS   := $(filter-out net/http,$(SERVER))
# Inputs longer than these only exercise length checks: expr's is 512 bytes;
# API requests that matter fit in a few KiB (bigger bodies are the same loops).
FUZZ_MAXLEN_api  := 8192
FUZZ_MAXLEN_expr := 1024
FUZZ_MAXLEN_layout := 1100
VALGRIND_TESTS ?= test_api test_expr
VALGRIND_UNITS := $(SERVER)

.PHONY: deps-fuzz fuzz fuzz-merge fuzz-replay valgrind bench-load
# Objects reached only through pattern rules would be deleted as intermediates.
.PRECIOUS: build/plain/%.o build/fuzz/obj/%.o

deps-fuzz:
	@sh scripts/deps.sh fuzz

# The expression tests need only expr and error; an explicit rule so that they
# build whether or not CORE lists expr yet.
build/test/test_expr: tests/unit/test_expr.c build/asan/model/expr.o build/asan/base/error.o
	@mkdir -p $(@D)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) $(TINC) $(DEP) -o $@ $< build/asan/model/expr.o build/asan/base/error.o

# ---- libFuzzer ---------------------------------------------------------------

build/fuzz/obj/%.o: server/%.c | deps-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

$(FUZZ_TARGETS:%=build/fuzz/%): build/fuzz/%: tests/fuzz/%.c $(FUZZ_UNITS:%=build/fuzz/obj/%.o)
	$(FUZZ_CC) $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer $(INC) $(PKG_CFLAGS) -o $@ $^ \
	    $(PKG_LIBS) -lm -lpthread

# One target after the other (each gets every core for its time); the
# committed corpus is read, new finds are written to build/fuzz/new_*.
fuzz: $(FUZZ_TARGETS:%=build/fuzz/%)
	@for t in $(FUZZ_TARGETS); do \
	    c=$${t#fuzz_}; mkdir -p build/fuzz/new_$$c; \
	    echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	    build/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	        -max_len=$$( case $$c in api) echo $(FUZZ_MAXLEN_api);; layout) echo $(FUZZ_MAXLEN_layout);; \
	            *) echo $(FUZZ_MAXLEN_expr);; esac ) \
	        -dict=tests/fuzz/$$c.dict -print_final_stats=1 \
	        -artifact_prefix=build/fuzz/$$t- build/fuzz/new_$$c tests/fuzz/corpus_$$c \
	        || exit 1; \
	done

fuzz-merge: $(FUZZ_TARGETS:%=build/fuzz/%)
	@for t in $(FUZZ_TARGETS); do \
	    c=$${t#fuzz_}; mkdir -p build/fuzz/new_$$c; \
	    build/fuzz/$$t -merge=1 -timeout=10 tests/fuzz/corpus_$$c build/fuzz/new_$$c \
	        || exit 1; \
	done
	@du -sh tests/fuzz/corpus_*

# ---- corpus replay without libFuzzer ---------------------------------------------

$(FUZZ_TARGETS:%=build/fuzz-replay/%): build/fuzz-replay/%: tests/fuzz/%.c \
        tests/fuzz/replay_main.c $(wildcard tests/*.h) $(FUZZ_UNITS:%=build/asan/%.o)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(TEST_OPT) $(SAN) $(TEST_LD) $(TINC) $(PKG_CFLAGS) -o $@ $(filter %.c %.o,$^) $(PKG_LIBS) -lm -lpthread

# Every target runs even when one fails; a failing input aborts its target
# with the broken invariant and the input's path on stderr.
fuzz-replay: $(FUZZ_TARGETS:%=build/fuzz-replay/%)
	@rc=0; for t in $(FUZZ_TARGETS); do \
	    build/fuzz-replay/$$t tests/fuzz/corpus_$${t#fuzz_} || { rc=1; echo "$$t: FAILED"; }; \
	done; exit $$rc

# ---- valgrind ------------------------------------------------------------------

# ASan and valgrind cannot share a process: these objects carry no sanitizer.
build/plain/%.o: server/%.c | deps
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(INC) $(DEP) $(PKG_CFLAGS) -c $< -o $@

build/valgrind/test_%: test_%.c tests/client.c $(wildcard tests/*.h tests/unit/*.h) $(VALGRIND_UNITS:%=build/plain/%.o)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(TINC) $(PKG_CFLAGS) -o $@ $< tests/client.c $(VALGRIND_UNITS:%=build/plain/%.o) \
	    $(PKG_LIBS) -lm -lpthread

valgrind: $(VALGRIND_TESTS:%=build/valgrind/%)
	@command -v valgrind >/dev/null || sh scripts/deps.sh test
	@for t in $(VALGRIND_TESTS); do \
	    valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	        --error-exitcode=1 --log-file=build/valgrind/$$t.log build/valgrind/$$t; \
	    rc=$$?; \
	    grep -E 'ERROR SUMMARY|in use at exit|lost:' build/valgrind/$$t.log | \
	        sed "s/^==[0-9]*== */valgrind $$t: /"; \
	    [ $$rc -eq 0 ] || { cat build/valgrind/$$t.log; exit 1; }; \
	done

# ---- load ------------------------------------------------------------------------

bench-load: $(BIN)
	@bash bench/load.sh
