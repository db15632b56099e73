"""docs/rules-index.md, the rule index an arbiter can audit (issue 24 item 8), is held to what exists.

Every paragraph of the four seed texts (the list is tests/fixtures/seed-paragraphs.txt, since a fresh
clone has no seeds) and every decision of docs/rules-decisions.md has one line in the index. Each line
names the module that implements it and the test that checks it (``path::test_name``), or says why it has
no code (``no code: …``) or no test (``untested: …``). A module or test that moved or was renamed, a
paragraph or decision with no line, a line for one that is gone: each fails here, naming the line.

The seeds' own citations point the same way: a ``4T1 §…`` or ``fide-rapid-regulations §…`` in the code
or the docs names a paragraph that exists.

Run as a script with the seeds' folder (``python -m tests.test_rules_index ../shared/seeds``) to print
the paragraph list again."""

from __future__ import annotations

import ast
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "docs/rules-index.md"
DECISIONS = ROOT / "docs/rules-decisions.md"
PARAGRAPHS = ROOT / "tests/fixtures/seed-paragraphs.txt"

SEEDS = {
    "4T1": "4t1-group-and-playoff-rules.de.txt",
    "FIDE-rapid": "fide-rapid-regulations.de-en.txt",
    "knockout": "knockout-and-double-knockout.de.txt",
    "platform": "platform-tournaments-and-arena.de.txt",
}
SEED_PART = "## The seed texts"
DECISION_PART = "## The decisions"


@dataclass(frozen=True)
class Entry:
    """One line of the index: a paragraph (``4T1 §4(5)``) or a decision (its section and question)."""

    line: int
    part: str  # SEED_PART or DECISION_PART
    section: str  # the ### heading it stands under
    key: str  # the paragraph's number, or the decision's question as rules-decisions.md writes it
    module: str  # the module cell
    test: str  # the test cell

    def where(self) -> str:
        return f"docs/rules-index.md line {self.line} ({self.key[:70]})"

    @property
    def no_code(self) -> bool:
        return self.module.startswith("no code:")

    @property
    def untested(self) -> bool:
        return self.test.startswith("untested:")

    @property
    def partly(self) -> bool:
        return self.test.startswith("partly:")

    def modules(self) -> list[str]:
        return [] if self.no_code else re.findall(r"`([^`]+)`", self.module)

    def tests(self) -> list[str]:
        return [] if self.untested else re.findall(r"`([^`]+)`", self.test)


def cells(row: str) -> list[str]:
    """A markdown table row's cells (``\\|`` is a pipe inside a cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def is_row(line: str) -> bool:
    return line.startswith("| ") and not line.startswith("|---")


@cache
def entries() -> tuple[Entry, ...]:
    part = section = ""
    found = []
    for number, line in enumerate(INDEX.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## "):
            part, section = line.strip(), ""
        elif line.startswith("### "):
            section = line[4:].strip()
        elif is_row(line) and part in (SEED_PART, DECISION_PART):
            row = cells(line)
            if row[0] in ("paragraph", "decision"):
                continue  # the header
            assert len(row) == (4 if part == SEED_PART else 3), f"line {number}: {len(row)} cells"
            found.append(Entry(number, part, section, row[0], row[-2], row[-1]))
    return tuple(found)


def paragraphs() -> list[str]:
    """The seeds' paragraphs, from the fixture: ``4T1 §4(5)``, ``platform ¶12`` …"""
    lines = PARAGRAPHS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines if line and not line.startswith("#")]


def decisions() -> list[tuple[str, str]]:
    """Every decision of rules-decisions.md: (its section, its question)."""
    section = ""
    found = []
    for line in DECISIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif is_row(line) and cells(line)[0] != "question":
            found.append((section, cells(line)[0]))
    return found


def test_every_seed_paragraph_has_one_line():
    listed = [e.key for e in entries() if e.part == SEED_PART]
    twice = sorted(k for k, n in Counter(listed).items() if n > 1)
    missing = [p for p in paragraphs() if p not in listed]
    unknown = [e.where() for e in entries() if e.part == SEED_PART and e.key not in paragraphs()]
    assert not twice, f"paragraphs indexed twice: {twice}"
    assert not missing, f"seed paragraphs with no line in docs/rules-index.md: {missing}"
    assert not unknown, (
        f"lines for paragraphs no seed has (see tests/fixtures/seed-paragraphs.txt): {unknown}"
    )
    assert [e.key for e in entries() if e.part == SEED_PART] == paragraphs(), "the seeds' order"


def test_every_decision_has_one_line():
    listed = [(e.section, e.key) for e in entries() if e.part == DECISION_PART]
    twice = sorted(k for k, n in Counter(listed).items() if n > 1)
    missing = [f"{s}: {q}" for s, q in decisions() if (s, q) not in listed]
    unknown = [
        e.where() for e in entries() if e.part == DECISION_PART and (e.section, e.key) not in decisions()
    ]
    assert not twice, f"decisions indexed twice: {twice}"
    assert not missing, f"decisions of docs/rules-decisions.md with no line in docs/rules-index.md: {missing}"
    assert not unknown, (
        f"lines for decisions docs/rules-decisions.md does not have (its section and question, word for "
        f"word): {unknown}"
    )


def test_every_line_names_a_module_and_a_test_or_says_why_not():
    wrong = []
    for e in entries():
        if e.no_code:
            if not e.module.removeprefix("no code:").strip() or e.test != "—":
                wrong.append(f"{e.where()}: 'no code:' says why, and its test is —")
        elif not e.modules():
            wrong.append(f"{e.where()}: no module named (`path`), and no 'no code: why'")
        elif e.untested:
            if not e.test.removeprefix("untested:").strip():
                wrong.append(f"{e.where()}: 'untested:' says why")
        elif not e.tests():
            wrong.append(f"{e.where()}: no test named (`path::test_name`), and no 'untested: why'")
    assert not wrong, "\n".join(wrong)


def test_every_module_named_exists():
    gone = [f"{e.where()}: {m}" for e in entries() for m in e.modules() if not (ROOT / m).exists()]
    assert not gone, "modules the index names that do not exist (moved? update the line):\n" + "\n".join(gone)


@cache
def defined(path: str) -> frozenset[str]:
    """The test functions a file defines: ``name`` and, for methods, ``Class::name``."""
    names: set[str] = set()
    for node in ast.parse((ROOT / path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names |= {item.name, f"{node.name}::{item.name}"}
    return frozenset(n for n in names if n.split("::")[-1].startswith("test"))


def test_every_test_named_is_defined():
    wrong = []
    for e in entries():
        for named in e.tests():
            path, _, name = named.partition("::")
            if not name or not Path(path).name.startswith("test_"):
                wrong.append(f"{e.where()}: {named} is not path/test_….py::test_name")
            elif not (ROOT / path).is_file():
                wrong.append(f"{e.where()}: {path} does not exist")
            elif name not in defined(path):
                wrong.append(f"{e.where()}: {path} defines no test {name}")
    assert not wrong, "tests the index names that do not exist (renamed? moved?):\n" + "\n".join(wrong)


CITED_4T1 = re.compile(r"4T1 (§ ?[\d(][\w()–-]*|\([a-f]\)[\w()–-]*)")
CITED_FIDE = re.compile(r"fide-rapid-regulations((?:,? (?:and )?§\d+(?:\.\d+)?)+)")
VALID_4T1 = re.compile(r"^§(\d+)(?:\((\d+)\))?(?:\(([a-f])\)(?:[-–]\(([a-f])\))?)?$")


def cited_4t1_exists(citation: str) -> bool:
    """``§4``, ``§4(5)``, ``§5(3)(f)``, ``§5(3)(a)-(f)``: a paragraph (or a section) the fixture lists."""
    m = VALID_4T1.match(citation.replace("§ ", "§"))
    if m is None:
        return False
    section, number, first, last = m.groups()
    known = set(paragraphs())
    if number is None:
        return any(p.startswith(f"4T1 §{section}(") for p in known)
    if first is None:
        return f"4T1 §{section}({number})" in known
    return all(f"4T1 §{section}({number})({x})" in known for x in {first, last or first})


def citing_files() -> list[Path]:
    files = []
    for top in ("services", "shared", "cli", "tests", "docs"):
        files += [p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".md", ".html")]
    return [p for p in files if p != Path(__file__).resolve()]


def test_the_seeds_cited_in_the_code_and_the_docs_are_paragraphs_that_exist():
    """A docstring or a doc citing ``4T1 (f)`` or ``4T1 §9(1)`` points nowhere: it must name the paragraph
    (``4T1 §5(3)(f)``) as docs/rules-index.md does."""
    wrong = []
    fide = {p.removeprefix("FIDE-rapid ") for p in paragraphs() if p.startswith("FIDE-rapid ")}
    for path in citing_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for m in CITED_4T1.finditer(line):
                citation = m.group(1).rstrip(".,;:")
                while citation.count(")") > citation.count("("):  # the citation closed a parenthesis
                    citation = citation[:-1]
                if not cited_4t1_exists(citation):
                    wrong.append(f"{path.relative_to(ROOT)}:{number}: 4T1 {citation}")
            for m in CITED_FIDE.finditer(line):
                for section in re.findall(r"§(\d+(?:\.\d+)?)", m.group(1)):
                    if not any(p == f"§{section}" or p.startswith(f"§{section}.") for p in fide):
                        wrong.append(f"{path.relative_to(ROOT)}:{number}: fide-rapid-regulations §{section}")
    assert not wrong, "citations naming no paragraph of the seed:\n" + "\n".join(wrong)


def number_paragraphs(seed: str, text: str) -> list[tuple[str, str]]:
    """The paragraphs of a seed text, numbered as tests/fixtures/seed-paragraphs.txt numbers them:
    (number, text)."""
    lines = [line.strip() for line in text.splitlines()]
    found: list[tuple[str, str]] = []
    if seed == "4T1":
        section = paragraph = None
        for line in lines:
            if line == "Präambel" or (m := re.match(r"^§(\d+) ", line)):
                section = "Präambel" if line == "Präambel" else f"§{m.group(1)}"
            elif (m := re.match(r"^\((\d+)\) (.*)", line)) and section:
                paragraph = f"{section}({m.group(1)})"
                found.append((paragraph, m.group(2)))
            elif (m := re.match(r"^\(([a-f])\) (.*)", line)) and paragraph:
                found.append((f"{paragraph}({m.group(1)})", m.group(2)))
        return found
    if seed == "FIDE-rapid":
        section = None
        with_text: set[str] = set()
        for line in lines:
            if line == "1. Scope":
                break  # the English half repeats the German one, numbered alike
            if re.match(r"^\d+\. \S+(?: \S+){0,3}$", line) and not line.endswith("."):
                section = line.split(".")[0]
            elif line and section is not None:
                if m := re.match(r"^(\d+)\. (.*)", line):
                    found.append((f"§{section}.{m.group(1)}", m.group(2)))
                elif section not in with_text:
                    with_text.add(section)
                    found.append((f"§{section}", line))
        return sorted(found, key=lambda p: [int(x) for x in re.findall(r"\d+", p[0])])
    number = 0  # unnumbered texts: the n-th non-empty line; a heading counts but is no paragraph
    for line in lines:
        if line:
            number += 1
            if line.startswith("- ") or re.search(r"[.:;…!?)]$", line):
                found.append((f"¶{number}", line))
    return found


def seed_list(folder: Path) -> list[str]:
    out = []
    for seed, name in SEEDS.items():
        for number, text in number_paragraphs(seed, (folder / name).read_text(encoding="utf-8")):
            out.append(f"{seed} {number}\t{' '.join(text.split()[:6])}")
    return out


def seeds_folder() -> Path | None:
    given = os.environ.get("ARBITER_SEEDS")
    for folder in ([Path(given)] if given else []) + [ROOT.parent / "shared" / "seeds"]:
        if all((folder / name).is_file() for name in SEEDS.values()):
            return folder
    return None


def test_the_paragraph_list_is_the_seeds_numbering():
    """The fixture is the seeds' numbering, where the seeds are at hand (``ARBITER_SEEDS``, or the shared
    folder beside the checkout)."""
    folder = seeds_folder()
    if folder is None:
        pytest.skip("the seed texts are not here (set ARBITER_SEEDS to their folder)")
    assert [line.split("\t")[0] for line in seed_list(folder)] == paragraphs()


if __name__ == "__main__":
    print("\n".join(seed_list(Path(sys.argv[1]))))
