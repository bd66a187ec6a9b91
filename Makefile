# Two entry points for a fresh machine: `make demo` (the main job) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint install clean proto proto-lint

$(BIN)/admiralty: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/admiralty

# A Jamaica tournament of the example bots into admiralty.db, then its leaderboard.
demo: install
	$(BIN)/admiralty tournament run jamaica --rounds 10 --seed 1 --name demo-$$(date +%s) \
		--bot example_bots/jamaica_greedy.py --bot example_bots/random_bot.py \
		--bot "example_bots/random_bot.py --seed 1"

lint: install
	$(BIN)/ruff check .

test: lint
	$(BIN)/pytest -n 2

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info sdk/*.egg-info

proto: install
	$(BIN)/python proto/generate.py

proto-lint:
	cd proto && npx --yes @bufbuild/buf lint
