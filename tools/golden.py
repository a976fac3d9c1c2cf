"""Golden output of every example scenario: what `make golden` writes and tests/test_golden.py compares.

For each scenarios/NAME.yaml, tests/golden/NAME/ holds the odds and deck JSON the command line prints
(the deck as the command's exit status and message where a system has none), the rendered HTML of the
pack, the cards, the counters and each side's orders handout, and the text of every page of the pack's and the
cards' PDFs. Refresh only with `make golden`, and read
`git diff tests/golden` before committing it: every change there must be one a commit message explains.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
GOLDEN = ROOT / "tests" / "golden"
sys.path.insert(0, str(ROOT))


def command_output(*args: str) -> str:
    """What `muster ARGS` prints: its standard output, or its exit status and message when it fails."""
    from generator.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return out.getvalue() if code == 0 else f"exit {code}\n{err.getvalue()}"


def html_outputs(name: str) -> dict[str, str]:
    """The pack's, the cards' and the counters' HTML and each side's orders handout's, as `muster build` renders
    them with default options."""
    from generator import build
    from generator.rendering import render

    scenario = build.load(SCENARIOS / f"{name}.yaml")
    options = build.Options()
    seed = build.choose_seed(scenario, options.seed)
    pack, sheet = build.compute(scenario, seed, options)
    pack_html, cards_html = build.render_html(scenario, pack, sheet)
    out = {"pack.html": pack_html, "cards.html": cards_html}
    if sheet.get("counters"):
        out["counters.html"] = render("counters.html", **sheet["counters"])
    for suffix, html in build.orders_html(scenario, pack):
        out[f"{suffix.lstrip('-')}.html"] = html
    return out


def pdf_text(path: Path) -> str:
    """Every page's text, each under a `--- page N` line, as pypdf extracts it."""
    from pypdf import PdfReader

    pages = PdfReader(path).pages
    return "".join(f"--- page {n}\n{page.extract_text()}\n" for n, page in enumerate(pages, 1))


def outputs(name: str, pack_pdf: Path, cards_pdf: Path) -> dict[str, str]:
    """Every golden file of one example, by file name."""
    from generator.loading import load_file

    data = load_file(SCENARIOS / f"{name}.yaml").data
    variants = [arg for v in data.get("variants") or [] for arg in ("--variant", v)]
    return {
        "odds.json": command_output("odds", data["system"], "--json", *variants),
        "deck.json": command_output("deck", str(SCENARIOS / f"{name}.yaml"), "--json"),
        **html_outputs(name),
        "pack.txt": pdf_text(pack_pdf),
        "cards.txt": pdf_text(cards_pdf),
    }


def examples() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


def main() -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name in examples():
            if command_output("build", str(SCENARIOS / f"{name}.yaml"), "--out", tmp).startswith("exit"):
                return 1
            folder = GOLDEN / name
            folder.mkdir(parents=True, exist_ok=True)
            for file, text in outputs(
                name, Path(tmp) / name / f"{name}.pdf", Path(tmp) / name / f"{name}-cards.pdf"
            ).items():
                (folder / file).write_text(text, encoding="utf-8")
            print(f"golden: {folder.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
