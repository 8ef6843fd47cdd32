# cmdgpu: convenience wrapper around CMake/CTest for people who just want it
# to work. `make demo` and `make test` set up (scripts/deps.sh), build and run.

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
CASAN_BUILD ?= build-asan-clang
FUZZ_BUILD ?= build-fuzz
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 60

.PHONY: all deps build demo test piglit asan asan-clang tsan bench install fuzz clean

all: build

deps:
	@sh scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	./$(BUILD)/cmdgpu demo --out out

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# piglit's GL ES tests (tests/piglit/gles.list) through Mesa's nouveau on the
# model and through llvmpipe; every result must be the one committed in
# tests/piglit/expected.tsv. The table: $(BUILD)/piglit/results.md. Skipped
# (saying why) where piglit is not installed.
piglit: build
	bash tests/piglit/run.sh $(BUILD) tests/piglit/gles.list tests/piglit/expected.tsv \
	  $(BUILD)/piglit $(JOBS) || [ $$? = 77 ]

# AddressSanitizer + UndefinedBehaviorSanitizer over every test and corpus.
asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMDGPU_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

# The fuzz harnesses' seed corpora (the hostile-input tests) once more with
# clang's AddressSanitizer + UndefinedBehaviorSanitizer: its bounds checks
# see what gcc's do not (an index past a row of a 2-D array, for one). Only
# the library and the corpus drivers are built.
CORPUS_TARGETS = $(patsubst fuzz/%.c,%_corpus,$(wildcard fuzz/fuzz_*.c))
asan-clang:
	@sh scripts/deps.sh clang libclang-rt-14-dev
	cmake -S . -B $(CASAN_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DCMDGPU_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(CASAN_BUILD) -j$(JOBS) --target $(CORPUS_TARGETS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(CASAN_BUILD) -R '^fuzz_.*_corpus$$' --output-on-failure -j$(JOBS)

# ThreadSanitizer over every test (the threaded modes are where it matters)
# but the two text round trips (disassemble, assemble, compare: no thread
# runs there), the slowest tests under a sanitizer (minutes each); ASan
# runs them.
TSAN_SKIP = ^(cli_roundtrip|test_vc4_cl_roundtrip)$$
tsan: deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMDGPU_TSAN=ON $(CMAKE_FLAGS)
	cmake --build $(TSAN_BUILD) -j$(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(TSAN_BUILD) --output-on-failure -j$(JOBS) \
	  -E '$(TSAN_SKIP)'

bench: build
	cmake --build $(BUILD) --target run_bench

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# libFuzzer binaries (clang), each run for FUZZ_SECONDS over a scratch copy
# of its seed corpus; new crashes land in $(FUZZ_BUILD)/crashes.
fuzz:
	@sh scripts/deps.sh clang libclang-rt-14-dev
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMDGPU_FUZZ=ON -DCMDGPU_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD) -j$(JOBS)
	@mkdir -p $(FUZZ_BUILD)/crashes
	@for src in fuzz/fuzz_*.c; do \
	  name=$$(basename $$src .c); short=$${name#fuzz_}; \
	  rm -rf $(FUZZ_BUILD)/work/$$short; mkdir -p $(FUZZ_BUILD)/work/$$short; \
	  cp fuzz/corpus/$$short/* $(FUZZ_BUILD)/work/$$short/ 2>/dev/null; \
	  echo "== $$name ($(FUZZ_SECONDS) s)"; \
	  ./$(FUZZ_BUILD)/fuzz/$$name -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/crashes/$$short- $(FUZZ_BUILD)/work/$$short || exit 1; \
	done

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD) out
