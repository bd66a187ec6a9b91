# Two entry points for a fresh machine: `make demo` (the main job) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint install toolchains bots clean screenshots proto proto-lint proto-release

$(BIN)/admiralty: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,web]'
	touch $@

install: $(BIN)/admiralty

# A Jamaica tournament of the example bots into admiralty.db, then its leaderboard.
demo: install
	$(BIN)/admiralty tournament run jamaica --rounds 10 --seed 1 --name demo-$$(date +%s) \
		--bot example_bots/jamaica_greedy.py --bot example_bots/random_bot.py \
		--bot "example_bots/random_bot.py --seed 1"

# ruff's lint and format checks, then mypy on the server and the SDK ([tool.mypy] in pyproject.toml).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# What the tests need beyond Python, from Debian's packages when missing: gRPC C++
# (example_bots/cpp and the protocol's C++ compile check), Node.js (example_bots/node),
# jq (example_bots/stdio/random_bot.sh), bubblewrap (the bot sandbox, --sandbox) and
# Chromium (the web app's browser tests, driven by Playwright).
APT_PACKAGES := g++ cmake pkg-config protobuf-compiler-grpc libgrpc++-dev jq bubblewrap chromium
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
toolchains:
	@if ! command -v grpc_cpp_plugin >/dev/null || ! command -v cmake >/dev/null \
	    || ! pkg-config --exists grpc++ 2>/dev/null || ! command -v node >/dev/null \
	    || ! command -v npm >/dev/null || ! command -v jq >/dev/null \
	    || ! command -v bwrap >/dev/null || ! command -v chromium >/dev/null; then \
	  extra=""; command -v npm >/dev/null || extra="nodejs npm"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) $$extra; \
	fi

# The example bots in other languages, ready to run: the Node bot's packages, the C++ bot
# built into example_bots/cpp/build. CMake is given the real path, which its cache records:
# the same build, whichever path (a link, say) leads to the checkout.
CPP_BOT := $(realpath example_bots/cpp)
bots: toolchains
	cd example_bots/node && npm ci --no-audit --no-fund --silent
	cmake -S $(CPP_BOT) -B $(CPP_BOT)/build >/dev/null
	cmake --build $(CPP_BOT)/build --parallel 2 >/dev/null

test: lint toolchains
	$(BIN)/pytest -n 2 --dist loadgroup  # a group (the Ray cluster's tests) stays on one worker

screenshots: install toolchains  # each game's board in the web viewer, for docs/web.md
	ADMIRALTY_SCREENSHOTS=docs/images $(BIN)/pytest -q tests/web/test_browser.py -k export

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info sdk/*.egg-info

proto: install
	$(BIN)/python proto/generate.py

BUF := proto/node_modules/.bin/buf

$(BUF): proto/package-lock.json
	cd proto && npm ci --no-audit --no-fund
	touch $@

# Lint the protocol and check it against the released one (tests/wire/test_buf.py does too).
proto-lint: $(BUF)
	cd proto && node_modules/.bin/buf lint
	cd proto && node_modules/.bin/buf breaking --against released/admiralty-v1.binpb

# Cutting a release: the protocol as it is now becomes what later changes must stay
# compatible with.
proto-release: $(BUF)
	cd proto && node_modules/.bin/buf build -o released/admiralty-v1.binpb
