"""WarSpike Tactical Core (seed 002): Instigator and Retaliator, Actions and Reactions, Paired-Resolutions, Blocks, Advantage."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ...schema import Bool, Checker, Choice, Int, Key, ListOf, Num, Record, Str, suggest
from ...scenario import NAME_PATTERN
from ...tables import Column, Table
from ..base import Prepared, System
from . import advantage
from .organisation import Organisation, organise, tree_rows

DISTANCE_UNITS = {"inch": ('"', "inches"), "cm": (" cm", "centimetres")}
TRACKER_TURNS_PER_TABLE = 12  # turn columns that fit across A4 and Letter beside the Unit names


def _name(doc: str) -> Key:
    return Key("name", Str(40, NAME_PATTERN, "a name (no control characters, < > { } or \\)"), doc)


def number(value) -> str:
    """12, 7.5, 2.25: a stat or distance as a player would write it."""
    value = Fraction(value).limit_denominator(1000)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


@dataclass
class BlocksPrepared(Prepared):
    """A WarSpike build worked out once: each side's Block tree as roster rows, with its totals."""

    forces: list[dict] = field(default_factory=list)


class WarSpike(System):
    id = "warspike"
    # seed 002 has no deck: see the rule data's `deck` note
    no_deck = ("warspike has no card deck or pre-drawn schedule: the Instigator comes from a coin toss, "
               "then from Advantage each turn, which depends on play; build the pack for its turn tracker")
    appendix_parts = ("sequence", "reference")
    uses_seed = False
    title = "WarSpike Tactical Core"
    folder = Path(__file__).parent

    # --- schema ---------------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        turn = self.rules["turn"]
        return [
            Key("turns", Int(1, turn["turns_max"]), f"How many turns the game lasts (about {turn['battle_seconds']} seconds of battle each); "
                "the tracker prints a box per turn to strike off.", required=False, default=turn["default_turns"]),
            Key("instigator", Str(60, NAME_PATTERN, "a side's name"), "The side that is Instigator on turn 1 without a coin toss "
                "(the augmented rules' scenario Instigator); later turns go by Advantage.", required=False),
            Key("distance_unit", Choice(list(DISTANCE_UNITS), "a unit of length, one of"), "The unit Move distances "
                "(Stature x move rate) print in.", required=False, default="inch"),
        ]

    def side_keys(self) -> list[Key]:
        u = self.rules["unit"]
        unit = Record([
            _name("The Unit's name; Blocks name their members by it, so it is unique in the scenario."),
            Key("troops", Int(1, u["troops_max"]), "How many troops (figures) the Unit has."),
            Key("stature", Num(0.1, u["stature_max"]), "The Unit's Stature stat."),
            Key("move_rate", Num(0.1, u["move_rate_max"]), "The Unit's move rate; a Move goes up to Stature x move rate."),
            Key("leader", Str(60, NAME_PATTERN, "a name"), "Who leads the Unit, where the Scenario gives one.", required=False),
            Key("mentality", Int(0, u["mentality_max"]), "The leader's Mentality stat, where given.", required=False),
            Key("hold", Bool(), "Under hold orders: the Unit holds its ground and only reacts.", required=False, default=False),
        ])
        block = Record([
            _name("The Block's name (a section, a platoon...); a larger Block names it as a member."),
            Key("level", Str(30, NAME_PATTERN, "a word such as Section or Platoon"), "What the Block is in military terms: "
                "Section, Platoon, Centuria...", required=False, default=""),
            Key("members", ListOf(Str(40, NAME_PATTERN, "a Unit's or Block's name"), min=2, max=40), "The Units and smaller Blocks "
                "of this side that follow the leader as one."),
            Key("leader", Str(40, NAME_PATTERN, "a member's name"), "The member the others follow; the first member when omitted.",
                required=False),
            Key("hold", Bool(), "Hold orders for every Unit in the Block.", required=False, default=False),
        ])
        return [
            Key("player", Str(40, NAME_PATTERN, "a name"), "The Player commanding this army.", required=False),
            Key("units", ListOf(unit, min=1, max=120), "The army's Units (fireteams, sections, Contubernia...)."),
            Key("blocks", ListOf(block, max=60), "The standing organisation: Units into Blocks and Blocks into larger Blocks.",
                required=False, default=[]),
        ]

    # --- validation beyond shape -------------------------------------------------------
    def check(self, scenario, ck: Checker) -> list:
        sides = scenario.sides
        wanted = self.rules["armies"]["sides"]
        if len(sides) != wanted:
            ck.report(("sides",), f"the core rules cover two opposing armies, each controlled by one Player (found {len(sides)} sides)")
            return []
        before = len(ck.problems)
        org = organise(sides, ck)
        if len(ck.problems) > before:
            return []
        able = [org.can_instigate(s) for s in range(len(sides))]
        if not any(able):
            ck.report(("sides",), f"neither side can be Instigator: every Unit of {sides[0]['name']!r} and of "
                      f"{sides[1]['name']!r} is under hold orders; a side needs at least one Unit that can advance")
        named = scenario.data.get("instigator")
        if named is not None:
            names = [s["name"] for s in sides]
            if named not in names:
                ck.report(("instigator",), f"expected a side's name, one of {', '.join(names)} (got {named!r}){suggest(named, names)}")
            elif not able[names.index(named)]:
                ck.report(("instigator",), f"{named!r} cannot be Instigator: every one of its Units is under hold orders")
        return []

    def organisation(self, scenario) -> Organisation:
        """The Block tree of a validated scenario (problems were reported by check)."""
        return organise(scenario.sides, _Silent())

    # --- computing ----------------------------------------------------------------------
    def odds(self, variants=()) -> list[Table]:
        """seed 002 rolls nothing beyond the coin toss: one table, the toss, counted over its faces."""
        faces = self.rules["coin_toss"]["faces"]
        rows = [{"face": f, "chance": Fraction(sum(1 for g in faces if g == f), len(faces))} for f in faces]
        return [Table("coin_toss", "The coin toss (who may choose to be Instigator)",
                      [Column("face", "The coin shows", "text"), Column("chance", "Chance", "prob")], rows,
                      note=self.rules["odds"]["note"])]

    def prepare(self, scenario, seed: int, passes: int | None = None) -> BlocksPrepared:
        return BlocksPrepared(scenario, seed, None, self.forces(scenario))

    def distance(self, scenario) -> tuple[str, str]:
        return DISTANCE_UNITS[scenario.data["distance_unit"]]

    def unit_facts(self, scenario, org: Organisation, name: str) -> dict:
        """One Unit's stats as printed: its Move worked out, its Blocks and its orders."""
        node = org.nodes[name]
        u = node.data
        mark, _ = self.distance(scenario)
        move = Fraction(str(u["stature"])) * Fraction(str(u["move_rate"]))
        held, inherited = org.held(name)
        return {
            "kind": "unit",
            "name": name,
            "troops": u["troops"],
            "stature": number(u["stature"]),
            "move_rate": number(u["move_rate"]),
            "move": number(move) + mark,
            "move_value": move,
            "leader": u.get("leader") or "",
            "mentality": "" if u.get("mentality") is None else str(u["mentality"]),
            "hold": held,
            "hold_from_block": inherited,
            "blocks": org.chain(name),
        }

    def block_facts(self, scenario, org: Organisation, name: str) -> dict:
        """A Block's totals, the member it follows, and the Move of its slowest Unit (see the rule data's note)."""
        node = org.nodes[name]
        units = [self.unit_facts(scenario, org, u.name) for u in org.units_within(name)]
        lead = self.unit_facts(scenario, org, org.leading_unit(name).name)
        slowest = min(units, key=lambda f: f["move_value"])
        held, inherited = org.held(name)
        return {
            "kind": "block",
            "name": name,
            "level": node.data["level"],
            "follows": node.data.get("leader") or node.children[0],
            "leader": lead["leader"],
            "mentality": lead["mentality"],
            "units": len(units),
            "troops": sum(f["troops"] for f in units),
            "move": slowest["move"],
            "slowest": slowest["name"],
            "hold": held,
            "hold_from_block": inherited,
            "blocks": org.chain(name),
        }

    def _rows(self, scenario, org: Organisation, side: int) -> list[dict]:
        out = []
        for row in tree_rows(org, side):
            node = org.nodes[row["name"]]
            facts = self.unit_facts(scenario, org, node.name) if node.kind == "unit" else self.block_facts(scenario, org, node.name)
            facts.pop("move_value", None)
            out.append({**facts, "depth": row["depth"], "guides": row["guides"]})
        return out

    def forces(self, scenario) -> list[dict]:
        """Each side's roster: its Block tree as rows, its totals, whether it can be Instigator."""
        org = self.organisation(scenario)
        styles = scenario.side_views
        out = []
        for s, side in enumerate(scenario.sides):
            rows = self._rows(scenario, org, s)
            depth = max(r["depth"] for r in rows)
            units = [r for r in rows if r["kind"] == "unit"]
            out.append({
                "name": styles[s].name,
                "colour": styles[s].colour,
                "shape": styles[s].shape,
                "badge": styles[s].badge,
                "player": side.get("player") or "",
                "rows": [{**r, "span": depth - r["depth"] + 1} for r in rows],
                "levels": depth,
                "units": len(units),
                "blocks": len(rows) - len(units),
                "troops": sum(r["troops"] for r in units),
                "holding": sum(1 for r in units if r["hold"]),
                "can_instigate": org.can_instigate(s),
            })
        return out

    def tracker(self, scenario, forces: list[dict]) -> dict:
        """The turn tracker: turns in tables of up to 12, each side's Units in tree order, tally rows for Advantage."""
        turns = list(range(1, scenario.data["turns"] + 1))
        # as few tables as fit, sharing the turns evenly (14 turns: 7 and 7), every table as wide as the first
        tables = -(-len(turns) // TRACKER_TURNS_PER_TABLE)
        width = -(-len(turns) // tables)
        chunks = [{"turns": turns[i:i + width], "pad": width - len(turns[i:i + width])} for i in range(0, len(turns), width)]
        sides = []
        for s, side in enumerate(forces):
            other = forces[1 - s]["name"]
            sides.append({
                "name": side["name"],
                "badge": side["badge"],
                "colour": side["colour"],
                "shape": side["shape"],
                "can_instigate": side["can_instigate"],
                "rows": [{"name": r["name"], "kind": r["kind"], "depth": r["depth"], "hold": r["hold"], "level": r.get("level", "")}
                         for r in side["rows"]],
                "tallies": [
                    {"label": "Units moving forward", "hint": "own"},
                    {"label": f"Routing or retreating (count for {other})", "hint": "opponent"},
                    {"label": f"Total (own forward + routing or retreating of {other})", "hint": "total"},
                ],
            })
        return {"chunks": chunks, "columns": width, "turns": len(turns), "sides": sides, "marks": self.rules["per_turn"]["tracker_marks"]}

    def examples(self, scenario) -> list[dict]:
        """The reference sheet's worked Advantage examples, settled by the same function players' tallies follow."""
        counts = self.rules["advantage"]["counts"]
        names = [s["name"] for s in scenario.sides]
        out = []
        for ex in self.rules["advantage"]["examples"]:
            moves = (advantage.Movement(**ex["first"]), advantage.Movement(**ex["second"]))
            result = advantage.settle(moves, counts)
            out.append({
                "first": _describe(names[0], ex["first"]),
                "second": _describe(names[1], ex["second"]),
                "totals": list(result.totals),
                "names": names,
                "outcome": (f"{names[result.advantage]} has the Advantage and is Instigator next turn"
                            if result.advantage is not None else "a tie: the coin toss settles it, as at the start of a game"),
            })
        return out

    def first_turn(self, scenario, forces: list[dict]) -> str:
        named = scenario.data.get("instigator")
        able = [f["name"] for f in forces if f["can_instigate"]]
        if named:
            return f"{named} is the Instigator on turn 1, as the Scenario states; Advantage decides every later turn."
        if len(able) == 1:
            return (f"Only {able[0]} can be Instigator (every Unit of the other side is under hold orders): "
                    f"{able[0]} becomes Instigator whenever it commits; the coin toss decides only whether it commits or passes.")
        return "Flip a coin for turn 1: the winner becomes the Instigator or passes."

    def pack(self, prepared: BlocksPrepared) -> dict:
        scenario = prepared.scenario
        forces = prepared.forces
        rules = self.rules
        mark, words = self.distance(scenario)
        return {
            "forces": forces,
            "tracker": self.tracker(scenario, forces),
            "first_turn": self.first_turn(scenario, forces),
            "turns": scenario.data["turns"],
            "battle_seconds": rules["turn"]["battle_seconds"],
            "battle_minutes": number(Fraction(scenario.data["turns"] * rules["turn"]["battle_seconds"], 60)),
            "distance_words": words,
            "rules": rules,
            "examples": self.examples(scenario),
            "coin": self.odds()[0],
        }

    # --- cards ----------------------------------------------------------------------------
    def cards(self, prepared: BlocksPrepared, card_size: str) -> list[dict]:
        """A card per Unit, then one set of Action and Reaction cards and the two role markers (the roles change hands)."""
        forces = prepared.forces
        out = []
        for side in forces:
            for row in side["rows"]:
                if row["kind"] != "unit":
                    continue
                out.append({
                    "kind": "unit",
                    "side": side["name"],
                    "colour": side["colour"],
                    "shape": side["shape"],
                    "badge": side["badge"],
                    "name": row["name"],
                    "long_name": len(row["name"]) > 16,  # two smaller lines in the band instead of one clipped line
                    "stats": [
                        {"label": "Troops", "value": str(row["troops"])},
                        {"label": "Stature", "value": row["stature"]},
                        {"label": "Move rate", "value": row["move_rate"]},
                        {"label": "Mentality", "value": row["mentality"] or "\u2013"},
                    ],
                    "move": row["move"],
                    "move_sum": f"{row['stature']} \u00d7 {row['move_rate']}",
                    "leader": row["leader"],
                    "blocks": " \u203a ".join(reversed(row["blocks"])),
                    "hold": row["hold"],
                    "options": " \u00b7 ".join(o["name"] for o in self.rules["actions"]),
                })
        blocks = self.rules["blocks"]
        text = self.rules["cards"]
        for role, options, rule, block_line in (
            ("action", self.rules["actions"], text["action_rule"], blocks["same_option"]),
            ("reaction", self.rules["reactions"], text["reaction_rule"], blocks["retaliator_block"]),
        ):
            for opt in options:
                out.append({"kind": f"option {role}", "role": role.capitalize(), "name": opt["name"], "text": opt["text"],
                            "rule": rule, "block": block_line})
        for role in ("instigator", "retaliator"):
            out.append({"kind": f"marker {role}", "role": role.capitalize(), "lines": text[role]})
        return out


def _describe(name: str, moves: dict) -> str:
    parts = [f"{n} {kind}" for kind, n in moves.items() if n]
    return f"{name}: " + (", ".join(parts) if parts else "no Unit moved")


class _Silent(Checker):
    """A checker for re-walking an already validated scenario: there is nothing left to report."""

    def __init__(self):
        self.problems = []

    def report(self, path, message, key=False):
        self.problems.append(message)


SYSTEM = WarSpike()
