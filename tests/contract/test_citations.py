"""One citation form for the rules, and every citation backed by its game's section index.

The project cites a rule as a game name and a reference in square brackets: a section of
the rulebook (section sign, then the number), a listed gap of the rules with the
project's decision (G, then its number) or a section of the project's reconstruction of
missing data (section sign, R, then the number); see docs/engine-kit.md. Several
references may share one citation, separated by ", ".

Each `docs/games/<game>.md` has a section titled exactly `## Section index`: a markdown
table with the header `| Section | Rule | Implemented in | Tests |` whose first cell is
exactly the reference. The tests here check that:

(a) every citation in server/, sdk/ (not the generated sdk/admiralty_sdk/v1), tests/,
    docs/, example_bots/ (not node_modules or build directories), benchmarks/ and
    README.md names a row of its game's index (text in brackets holding a backslash or
    a bracket is the source of a regular expression, not a citation);
(b) every index row names files that exist: each token of its "Implemented in" and
    "Tests" cells that ends in `.py` (optionally followed by `:line` or `::name`) is a
    path found relative to one of server/admiralty/games/<game>/, server/admiralty/games/,
    server/admiralty/, tests/<game>/, tests/ or the repository root; a `::name` must be
    defined (`def` or `class`) in that file;
(c) the older forms are gone from the same files: "spec" or "reconstruction" followed by
    a section sign, and "rules" followed by a number (prose such as "the rules of the
    game" is not caught);
(d) nothing in the repository points outside it: no tracked or new (not ignored) text
    file names a sibling checkout, the machine's work directory or a home directory.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = ("jamaica", "black_fleet", "blackbeard")
CITATION = re.compile(r"\[(jamaica|black_fleet|blackbeard) ([^\]]+)\]")
HEADER = "| Section | Rule | Implemented in | Tests |"
SCOPES = ("server", "sdk", "tests", "docs", "example_bots", "benchmarks", "README.md")
SKIPPED = {
    "node_modules",
    "build",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
}
GENERATED = REPO / "sdk" / "admiralty_sdk" / "v1"
TEXT = {
    ".py",
    ".md",
    ".toml",
    ".txt",
    ".rst",
    ".js",
    ".mjs",
    ".ts",
    ".cpp",
    ".cc",
    ".h",
    ".hpp",
    ".sh",
    ".proto",
    ".cfg",
    ".ini",
    ".yaml",
    ".yml",
    ".json",
}
OLD_FORMS = re.compile(r"\bspec §|\breconstruction §|\b[Rr]ules \d")
OUTSIDE = re.compile(
    "|".join(
        [
            re.escape("../" + "shared"),  # built so that this file does not match itself
            re.escape("/" + "work/"),
            "/" + "home/[A-Za-z_]",
            "/" + "Users/[A-Za-z_]",
            re.escape("/" + "root/"),
        ]
    )
)
PY_TOKEN = re.compile(r"([\w./-]+\.py)(?:::(\w+)|:\d+)?")


def scoped_files() -> list[Path]:
    """The text files whose citations count, in a stable order."""
    files = []
    for scope in SCOPES:
        root = REPO / scope
        candidates = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in candidates:
            parts = set(path.relative_to(REPO).parts)
            if (
                path.is_file()
                and path.suffix in TEXT
                and not parts & SKIPPED
                and not any(part.endswith(".egg-info") for part in parts)
                and GENERATED not in path.parents
            ):
                files.append(path)
    return files


@cache
def citations() -> list[tuple[str, int, str, str]]:
    """Every citation as (file, line, game, one reference)."""
    found = []
    for path in scoped_files():
        text = path.read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in CITATION.finditer(line):
                if "\\" in match.group(2) or "[" in match.group(2):
                    continue  # the source of a regular expression, not a citation
                for ref in match.group(2).split(", "):
                    found.append((str(path.relative_to(REPO)), number, match.group(1), ref))
    return found


@cache
def section_index(game: str) -> dict[str, list[str]] | None:
    """The rows of `docs/games/<game>.md`'s section index by reference (cells as text);
    None if the file or the section is missing. Raises on a malformed table."""
    path = REPO / "docs" / "games" / f"{game}.md"
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    try:
        start = lines.index("## Section index")
    except ValueError:
        return None
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            table.append(line.strip())
    assert table and table[0] == HEADER, f"{path.name}: the index's header must be {HEADER}"
    assert re.fullmatch(r"\|( *:?-+:? *\|){4}", table[1]), f"{path.name}: no table rule"
    rows: dict[str, list[str]] = {}
    for row in table[2:]:
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert len(cells) == 4, f"{path.name}: a row of {len(cells)} cells: {row}"
        assert cells[0] not in rows, f"{path.name}: {cells[0]} is listed twice"
        rows[cells[0]] = cells
    return rows


def indexed_games() -> list[str]:
    return [game for game in GAMES if (REPO / "docs" / "games" / f"{game}.md").exists()]


@pytest.mark.parametrize("game", indexed_games())
def test_every_documented_game_has_a_section_index(game):
    rows = section_index(game)
    assert rows, f"docs/games/{game}.md needs a '## Section index' table with rows"


def test_every_citation_names_a_row_of_its_games_index():
    missing = []
    for path, line, game, ref in citations():
        rows = section_index(game)
        if rows is None:
            missing.append(f"{path}:{line}: [{game} {ref}]: no section index for {game}")
        elif ref not in rows:
            missing.append(f"{path}:{line}: [{game} {ref}] is not a row of {game}'s index")
    assert not missing, f"{len(missing)} citations unbacked:\n" + "\n".join(missing[:40])


def test_the_citations_are_found_where_they_are_written():
    """A guard on the scan itself: this file's own scope list reaches the engines."""
    files = {str(path.relative_to(REPO)) for path in scoped_files()}
    assert "README.md" in files and "server/admiralty/games/flow.py" in files
    assert not any(name.startswith("sdk/admiralty_sdk/v1/") for name in files)
    assert not any("node_modules" in name for name in files)


def resolve(game: str, token: str) -> Path | None:
    """The file a `.py` token of an index row names, or None."""
    games = REPO / "server" / "admiralty" / "games"
    bases = (
        games / game,
        games,
        REPO / "server" / "admiralty",
        REPO / "tests" / game,
        REPO / "tests",
        REPO,
    )
    for base in bases:
        path = base / token
        if path.is_file():
            return path
    return None


@pytest.mark.parametrize("game", indexed_games())
def test_every_index_row_names_files_that_exist(game):
    rows = section_index(game)
    if rows is None:
        pytest.fail(f"docs/games/{game}.md has no '## Section index'")
    broken = []
    for ref, cells in rows.items():
        for cell in cells[2:]:
            for token, name in PY_TOKEN.findall(cell.replace("`", " ")):
                path = resolve(game, token)
                if path is None:
                    broken.append(f"{ref}: {token} does not exist")
                elif name and not re.search(
                    rf"^\s*(def|class) {name}\b", path.read_text(), re.MULTILINE
                ):
                    broken.append(f"{ref}: {token} defines no {name}")
    assert not broken, "\n".join(broken)


def test_the_old_citation_forms_are_gone():
    old = []
    for path in scoped_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = OLD_FORMS.search(line)
            if match:
                old.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:90]}")
    assert not old, f"{len(old)} lines cite the old way:\n" + "\n".join(old[:60])


def test_nothing_points_outside_the_repository():
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    outside = []
    for name in filter(None, listed.decode().split("\0")):
        path = REPO / name
        if not path.is_file():
            continue  # deleted in the working tree
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        for number, line in enumerate(data.decode(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                outside.append(f"{name}:{number}: {line.strip()[:90]}")
    assert not outside, "\n".join(outside[:40])
