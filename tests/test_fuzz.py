"""Property-based fuzzing: mutated copies of the example scenarios are refused with Problems or build cleanly, never crash.

`make test` runs a small slice (the "quick" profile); `make fuzz` runs the "fuzz" profile, over 10,000 inputs in all.
Only InputProblems may come out of loading and validation; a scenario that validates must also get through the
compute stage (system.pack, cards, deck and the Jinja templates) without an exception. PDFs are not rendered here:
test_hostile.py renders the hostile corpus.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest
import yaml
from conftest import SCENARIOS
from hypothesis import given
from hypothesis import strategies as st

from generator.build import Options, compute, load, render_html
from generator.errors import InputProblems, UsageError
from generator.loading import load_text
from generator.scenario import validate

EXAMPLES = {p.name: p.read_text(encoding="utf-8") for p in sorted(SCENARIOS.glob("*.yaml"))}
TREES = {name: load_text(text, name).data for name, text in EXAMPLES.items()}

# Bits of YAML and Markdown syntax, so that mutations reach the parser's corners and not only plain text.
SYNTAX = st.sampled_from(
    [
        ":",
        ": ",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "&a ",
        "*a",
        "!!str ",
        "!x ",
        "|",
        ">",
        "'",
        '"',
        "#",
        "\n",
        "  ",
        "\t",
        "? ",
        "---\n",
        "...",
        "%YAML 1.2\n",
        "NO",
        "~",
        "0x1F",
        ".inf",
        "1e9",
        "2024-01-01",
        "<script>",
        "](file:///etc/passwd)",
        "![a](../x.png)",
        "\\",
        "\x00",
        "\ufeff",
    ]
)
JUNK_TEXT = st.one_of(st.text(max_size=30), SYNTAX)
JUNK_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**18) + 1, 10**18 - 1),
        st.sampled_from([0, 1, 2, 3, 6, 7, 50, -1]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([0.5, 2.0, 1e300, -0.0]),
        st.text(max_size=40),
        st.sampled_from(
            [
                "NO",
                "yes",
                "2024-01-01",
                "Veteran",
                "blue",
                "#ff0000",
                "red; background: url(file:///etc/passwd)",
                "A1",
                "Z99",
                "",
            ]
        ),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=3)),
    max_leaves=8,
)


def survive(text: str, name: str = "fuzzed.yaml", options: Options | None = None) -> None:
    """Load, validate and compute one text: InputProblems is the only way it may fail."""
    options = options or Options()
    try:
        scenario = validate(load_text(text, name))
    except InputProblems as err:
        assert err.count, "InputProblems with no problem in it"
        for problem in err.problems:
            # a notice (the cross-checks still to run) goes with the file's problems and has no place of its own
            assert problem.file == name and (problem.notice or problem.line >= 1 and problem.col >= 1), problem
        return
    seed = 12345
    if options.card_size not in scenario.system.card_sizes:  # refused as a usage error, never a crash
        with pytest.raises(UsageError, match="cards come in"):
            compute(scenario, seed, options)
        options = replace(options, card_size="poker")
    pack, sheet = compute(scenario, seed, options)
    render_html(scenario, pack, sheet)
    deck = scenario.system.prepare(scenario, seed).deck
    if deck is None:  # a system with no deck says why
        assert scenario.system.no_deck
    else:
        scenario.system.deck_text(deck)


def paths(tree, prefix=()):
    """Every path into a tree of dicts and lists, the root included."""
    out = [prefix]
    if isinstance(tree, dict):
        for key, value in tree.items():
            out += paths(value, prefix + (key,))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            out += paths(value, prefix + (i,))
    return out


def get(tree, path):
    for part in path:
        tree = tree[part]
    return tree


def put(tree, path, value):
    if not path:
        return value
    get(tree, path[:-1])[path[-1]] = value
    return tree


@st.composite
def mutated_tree(draw):
    """An example scenario's data with a few keys dropped, values changed or swapped, and junk inserted."""
    name = draw(st.sampled_from(sorted(TREES)))
    tree = copy.deepcopy(TREES[name])
    for _ in range(draw(st.integers(1, 4))):
        spots = paths(tree)
        path = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(["drop", "replace", "swap", "insert", "duplicate"]))
        if action == "drop" and path:
            parent = get(tree, path[:-1])
            del parent[path[-1]]
        elif action == "replace":
            tree = put(tree, path, draw(JUNK_VALUE))
        elif action == "swap" and path:
            other = draw(
                st.sampled_from([p for p in spots if p and p[: len(path)] != path and path[: len(p)] != p] or [path])
            )
            a, b = copy.deepcopy(get(tree, path)), copy.deepcopy(get(tree, other))
            tree = put(tree, path, b)
            tree = put(tree, other, a)
        elif action == "insert":
            target = get(tree, path)
            if isinstance(target, dict):
                target[draw(st.text(min_size=1, max_size=12))] = draw(JUNK_VALUE)
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(JUNK_VALUE))
        elif action == "duplicate" and path:
            target = get(tree, path[:-1])
            if isinstance(target, list):
                target.append(copy.deepcopy(target[path[-1]]))
    return tree


@st.composite
def mutated_text(draw):
    """An example scenario's text truncated, spliced with junk, with lines dropped or repeated."""
    text = EXAMPLES[draw(st.sampled_from(sorted(EXAMPLES)))]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["truncate", "insert", "delete", "replace", "line"]))
        if action == "truncate":
            text = text[:at]
        elif action == "insert":
            text = text[:at] + draw(JUNK_TEXT) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif action == "replace":
            end = at + draw(st.integers(1, 12))
            text = text[:at] + draw(JUNK_TEXT) + text[end:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[draw(st.integers(0, len(lines) - 1))]) if draw(st.booleans()) else lines.pop(i)
            text = "\n".join(lines)
    return text


@given(
    mutated_tree(),
    st.sampled_from(
        [
            Options(),
            Options(paper="letter", card_size="mini"),
            Options(card_size="tarot", fronts_only=True, ink_saver=True),
        ]
    ),
)
def test_mutated_scenarios_are_refused_or_computed_never_crash(tree, options):
    """Dropped keys, changed types, swapped values and inserted junk give Problems or a clean compute stage."""
    text = yaml.safe_dump(tree, allow_unicode=True, sort_keys=False)
    survive(text, options=options)


@given(mutated_text())
def test_truncated_and_spliced_files_are_refused_or_computed_never_crash(text):
    """Truncation, junk and YAML syntax spliced into the text give Problems with a position, never a library error."""
    survive(text)


@given(st.sampled_from(sorted(EXAMPLES)), st.text(min_size=1, max_size=200))
def test_random_unicode_in_prose_and_names_never_crashes(name, junk):
    """Any unicode in the briefing, the title or a side name is refused or printed, never a crash."""
    tree = copy.deepcopy(TREES[name])
    tree["briefing"] = junk
    tree["title"] = junk[:80]
    tree["sides"][0]["name"] = junk[:60]
    survive(yaml.safe_dump(tree, allow_unicode=True, sort_keys=False))


def test_example_scenarios_survive_the_same_checks():
    """The harness itself passes every example through the compute stage, so a mutation has something to break."""
    for name, text in EXAMPLES.items():
        survive(text, name)
        assert load(SCENARIOS / name)


# Text as other programs write it: escapes from json.dumps (surrogate pairs for emoji), lone surrogates, control
# characters, separators, and scripts Muster's fonts do not draw. Each is refused at its position or printed.
FOREIGN = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.characters(categories=["Cs"]),
        st.sampled_from(["ก", "न", "😀", "\U0001f525", "\u2028", "\u2029", "\x1b", "\x07", "\u200d", "\ufeff", "Ж"]),
    ),
    min_size=1,
    max_size=60,
)


@given(st.sampled_from(sorted(EXAMPLES)), FOREIGN, st.booleans())
def test_escapes_surrogates_and_other_scripts_are_refused_or_printable(name, junk, as_json):
    """Written as JSON escapes or YAML escapes into the title, a side name and the briefing: a problem, or text
    whose every character the bundled fonts draw (what validate passes, build prints)."""
    tree = copy.deepcopy(TREES[name])
    tree["briefing"] = junk
    tree["title"] = junk[:80]
    tree["sides"][0]["name"] = junk[:60]
    text = json.dumps(tree) if as_json else yaml.safe_dump(tree, allow_unicode=False, sort_keys=False)
    survive(text)
