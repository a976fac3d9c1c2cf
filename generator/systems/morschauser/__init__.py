"""Morschauser Modern (seed 004): a square grid, card-tile activation, artillery scatter, D6 + Battle Power battles."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from ...decks import rng_for, shuffled
from ...schema import Checker, Choice, Int, Key, ListOf, Record, Spec, Str
from ...scenario import NAME_PATTERN
from ..base import Prepared, System
from . import odds
from .map import GridMap, square_name, unit_uri

SQUARE_RE = re.compile(r"([A-Za-z])([0-9]{1,2})")
SUIT_SYMBOLS = {"H": "\u2665", "C": "\u2663", "D": "\u2666", "S": "\u2660"}


@dataclass
class GridPrepared(Prepared):
    """A Morschauser build worked out once: the roster with each unit's tile for every turn, and the map."""

    roster: list[dict] = field(default_factory=list)
    map: str = ""
    legend: list[dict] = field(default_factory=list)


def parse_square(text: str) -> tuple[int, int] | None:
    match = SQUARE_RE.fullmatch(text.strip())
    if not match or int(match.group(2)) < 1:
        return None
    return (ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)


class Square(Spec):
    """One grid square written column letter then row number, "C4"; `span` also takes a run "A5:L5"."""

    def __init__(self, span: bool = False):
        self.span = span

    def expected(self):
        return "a square such as C4" + (" or a block of squares such as B2:D4" if self.span else "")

    def check(self, value, path, ck):
        if not isinstance(value, str):
            return self.wrong(value, path, ck)
        ends = value.split(":") if self.span else [value]
        if len(ends) > 2:
            return self.wrong(value, path, ck)
        squares = [parse_square(e) for e in ends]
        if any(s is None for s in squares):
            return self.wrong(value, path, ck)
        if not self.span:
            return squares[0]
        (c0, r0), (c1, r1) = squares[0], squares[-1]
        cs = range(c0, c1 + (1 if c1 >= c0 else -1), 1 if c1 >= c0 else -1)
        rs = range(r0, r1 + (1 if r1 >= r0 else -1), 1 if r1 >= r0 else -1)
        # a run along one row or column keeps its written direction (a road from A5 to L5 runs east)
        return [(c, r) for r in rs for c in cs]

    def json_schema(self):
        pattern = r"^[A-Za-z][0-9]{1,2}(:[A-Za-z][0-9]{1,2})?$" if self.span else r"^[A-Za-z][0-9]{1,2}$"
        return {"type": "string", "pattern": pattern}


def cells(entry: dict) -> list[tuple[int, tuple[int, int]]]:
    """A terrain entry's squares in order, each with the index of the item that named it (C4 or a block)."""
    return [(i, sq) for i, span in enumerate(entry["squares"]) for sq in span]


def squares_of(entry: dict) -> list[tuple[int, int]]:
    return [sq for _, sq in cells(entry)]


def card_order_key(card: str, rules: dict) -> tuple[int, int]:
    """Where a tile such as "10S" falls in the activation order: rank first (Ace low), then suit."""
    turn = rules["turn"]
    return (turn["ranks"].index(card[:-1]), turn["suits"].index(card[-1]))


class MorschauserModern(System):
    id = "morschauser-modern"
    title = "Morschauser Modern"
    folder = Path(__file__).parent

    # --- rule data shortcuts ---------------------------------------------------------------
    @property
    def types(self) -> dict[str, dict]:
        return {t["id"]: t for t in self.rules["unit_types"]}

    def variants(self) -> dict[str, str]:
        return {v["id"]: v["summary"] for v in self.rules["variants"]}

    def active(self, ids) -> list[dict]:
        return [v for v in self.rules["variants"] if v["id"] in ids]

    def unit_type(self, type_id: str, variants=()) -> dict:
        """A unit type with the scenario's variants applied (cavalry moving 3, say)."""
        out = dict(self.types[type_id])
        for v in self.active(variants):
            if type_id in v.get("move", {}):
                out["move"] = v["move"][type_id]
        return out

    def costs(self, variants=()) -> dict[str, Fraction]:
        mv = self.rules["movement"]
        woods = mv["woods_cost"]
        for v in self.active(variants):
            woods = v.get("woods_cost", woods)
        return {"road": Fraction(mv["road_cost"]), "river": Fraction(mv["river_cost"]), "woods": Fraction(woods)}

    # --- schema -------------------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        rules = self.rules
        grid = Record([
            Key("columns", Int(4, rules["grid"]["columns_max"]), "Squares across, lettered A, B, C... from the left."),
            Key("rows", Int(4, rules["grid"]["rows_max"]), "Squares down, numbered 1, 2, 3... from the top."),
        ])
        terrain = Record([
            Key("kind", Choice(rules["terrain"]["kinds"], "a terrain kind, one of"), "hill, woods, town, road, river or fortification."),
            Key("squares", ListOf(Square(span=True), min=1, max=400), "The squares it covers: C4, or a block B2:D4; roads and rivers in order along them."),
            Key("level", Int(1, rules["terrain"]["contour_max"]), "A hill's contour level (the plain is 0).", required=False),
            Key("name", Str(40, NAME_PATTERN, "a place name"), "A name printed on the map at the first square.", required=False),
        ], after=self._terrain_level)
        objective = Record([
            Key("name", Str(40, NAME_PATTERN, "a name"), "The objective's name."),
            Key("at", Square(), "Its square."),
            Key("points", Int(0, 100), "Victory points, if the scenario scores them.", required=False),
        ])
        return [
            Key("grid", grid, "The grid's size in squares."),
            Key("turns", Int(1, rules["limits"]["turns_max"]), "How many turns; the schedule draws a tile per unit per turn.", required=False, default=8),
            Key("variants", ListOf(Choice(list(self.variants()), "a variant, one of"), max=len(self.variants())),
                "Variants from the readers' comments switched on.", required=False, default=[]),
            Key("terrain", ListOf(terrain, max=200), "Terrain by square.", required=False, default=[]),
            Key("objectives", ListOf(objective, max=20), "Objective squares.", required=False, default=[]),
        ]

    def side_keys(self) -> list[Key]:
        rules = self.rules
        unit = Record([
            Key("type", Choice(list(self.types), "a unit type, one of"), "The unit type from the rule data."),
            Key("at", Square(), "The unit's starting square."),
            Key("facing", Choice(rules["facings"], "a facing, one of"), "The edge its front faces: north is the top of the map."),
            Key("quality", Choice(rules["quality"]["levels"], "a quality, one of"), "normal, or poor (infantry and cavalry only).", required=False, default="normal"),
            Key("name", Str(40, NAME_PATTERN, "a unit name"), "A name; defaults to its type and a number.", required=False),
        ])
        return [Key("units", ListOf(unit, min=1, max=200), "The side's units, one square each.")]

    @staticmethod
    def _terrain_level(entry: dict, path, ck: Checker) -> None:
        if entry["kind"] == "hill" and entry.get("level") is None:
            ck.report(path, "missing key 'level' (a hill's contour level)")
        if entry["kind"] != "hill" and entry.get("level") is not None:
            ck.report(path + ("level",), f"only a hill has a contour level (this is {entry['kind']})")

    # --- validation beyond shape -----------------------------------------------------------
    def terrain_map(self, scenario) -> dict[tuple[int, int], dict]:
        """Every square's terrain: level, and the set of kinds on it."""
        squares: dict = {}
        for entry in scenario.data["terrain"]:
            for sq in squares_of(entry):
                cell = squares.setdefault(sq, {"level": 0, "kinds": set()})
                if entry["kind"] == "hill":
                    # hills are written as nested blocks: a square takes the highest level given it
                    cell["level"] = max(cell["level"], entry["level"])
                else:
                    cell["kinds"].add(entry["kind"])
        return squares

    def check(self, scenario, ck: Checker) -> list:
        rules = self.rules
        data = scenario.data
        cols, rows = data["grid"]["columns"], data["grid"]["rows"]
        last = square_name(cols - 1, rows - 1)

        def on_grid(sq, path) -> bool:
            if 0 <= sq[0] < cols and 0 <= sq[1] < rows:
                return True
            ck.report(path, f"square {square_name(*sq)} is off the {cols} x {rows} grid (A1 to {last})")
            return False

        variants = data["variants"]
        scatters = [v["id"] for v in self.active(variants) if v.get("scatter")]
        if len(scatters) > 1:
            ck.report(("variants",), f"only one scatter variant at a time (got {' and '.join(scatters)})")
        for t, entry in enumerate(data["terrain"]):
            path = ("terrain", t, "squares")
            for i, sq in cells(entry):
                on_grid(sq, path + (i,))
            if entry["kind"] in ("road", "river"):
                self._check_path(entry, path, ck)
        for o, obj in enumerate(data["objectives"]):
            on_grid(obj["at"], ("objectives", o, "at"))

        terrain = self.terrain_map(scenario)
        costs = self.costs(variants)
        taken: dict = {}
        names: dict = {}
        count = 0
        for s, side in enumerate(scenario.sides):
            for u, unit in enumerate(side["units"]):
                count += 1
                path = ("sides", s, "units", u)
                utype = self.unit_type(unit["type"], variants)
                if unit["quality"] == "poor" and not utype["may_be_poor"]:
                    ck.report(path + ("quality",), f"only infantry or cavalry may be poor quality (this is {utype['name']})")
                if unit.get("name"):
                    if (s, unit["name"]) in names:
                        ck.report(path + ("name",), f"two units of this side are named {unit['name']!r}")
                    names[(s, unit["name"])] = path
                sq = unit["at"]
                if not on_grid(sq, path + ("at",)):
                    continue
                if sq in taken:
                    other = taken[sq]
                    ck.report(path + ("at",), f"two units in square {square_name(*sq)} (sides[{other[0]}].units[{other[1]}] is there); "
                                              "one unit per square")
                taken[sq] = (s, u)
                kinds = terrain.get(sq, {"kinds": set()})["kinds"]
                road = bool(kinds & {"road", "town"})
                for kind in ("river", "woods"):
                    if kind in kinds and not road and utype["move"] < costs[kind]:
                        ck.report(path + ("at",), f"a {utype['name']} unit cannot be in {kind} square {square_name(*sq)}: it moves "
                                                  f"{utype['move']} and a {kind} square costs {costs[kind]}, and the rules give it no "
                                                  "other way in (put it on a road or bridge)")
        limit = rules["limits"]["units_max"]
        if count > limit:
            ck.report(("sides",), f"at most {limit} units, one card tile each from one deck of {rules['turn']['cards']} (found {count})")
        return []

    @staticmethod
    def _check_path(entry: dict, path, ck: Checker) -> None:
        flat = cells(entry)
        for i in range(1, len(flat)):
            (c0, r0), (c1, r1) = flat[i - 1][1], flat[i][1]
            if abs(c0 - c1) + abs(r0 - r1) != 1:
                ck.report(path + (flat[i][0],), f"{entry['kind']} squares {square_name(c0, r0)} and {square_name(c1, r1)} do not share an edge; "
                                f"list a {entry['kind']}'s squares in order along it, or give each stretch its own entry")
                return

    # --- units and the schedule ------------------------------------------------------------
    def units(self, scenario) -> list[dict]:
        """Every unit in roster order with its side, its code (A1, B3: side letter and number) and its name."""
        out = []
        for s, side in enumerate(scenario.sides):
            seen: dict[str, int] = {}
            for u, unit in enumerate(side["units"]):
                utype = self.types[unit["type"]]
                seen[unit["type"]] = seen.get(unit["type"], 0) + 1
                out.append({
                    "code": f"{chr(ord('A') + s)}{u + 1}",
                    "side": s,
                    "side_name": side["name"],
                    "name": unit.get("name") or f"{utype['name']} {seen[unit['type']]}",
                    "data": unit,
                })
        return out

    def full_deck(self) -> list[str]:
        """The 52 tiles in activation order: AH AC AD AS 2H ... KS."""
        turn = self.rules["turn"]
        return [rank + suit for rank in turn["ranks"] for suit in turn["suits"]]

    def prepare(self, scenario, seed: int, passes: int | None = None) -> GridPrepared:
        deck = self.schedule(scenario, seed, passes)
        roster = self.roster(scenario, deck)
        svg, legend = self.map_svg(scenario)
        return GridPrepared(scenario, seed, deck, roster, svg, legend)

    def schedule(self, scenario, seed: int, passes: int | None = None) -> dict:
        """Each turn's tiles drawn from a full bag, one a unit, in activation order."""
        units = self.units(scenario)
        tiles = self.full_deck()
        turns = []
        for t in range(1, (passes or scenario.data["turns"]) + 1):
            # seed 004: "a playing card tile is picked out of the bag ... next to each unit"; the bag is full again each turn
            bag = shuffled(tiles, rng_for(seed, f"turn-{t}"))
            drawn = [(bag[i], unit) for i, unit in enumerate(units)]
            drawn.sort(key=lambda pair: card_order_key(pair[0], self.rules))
            turns.append({
                "turn": t,
                "draws": [{"unit": u["name"], "code": u["code"], "side": u["side_name"], "card": card} for card, u in drawn],
            })
        return {"system": self.id, "scenario": scenario.title, "seed": seed, "turns": turns}

    def deck_text(self, deck: dict) -> str:
        lines = [f"{deck['scenario']}: seed {deck['seed']}, activation order per turn (Ace to King; Hearts, Clubs, Diamonds, Spades)"]
        for turn in deck["turns"]:
            lines.append(f"Turn {turn['turn']}:")
            lines += [f"  {d['card']:>3}  {d['code']:<4} {d['side']}: {d['unit']}" for d in turn["draws"]]
        return "\n".join(lines)

    # --- the pack -------------------------------------------------------------------------------
    def odds(self, variants=()) -> list:
        # the tables depend only on the rule data and the variants: worked out once per process
        key = tuple(variants)
        if key not in self._odds_memo:
            self._odds_memo[key] = odds.all_tables(self.rules, key)
        return self._odds_memo[key]

    @cached_property
    def _odds_memo(self) -> dict:
        return {}

    @staticmethod
    def card_label(card: str) -> dict:
        return {"rank": card[:-1], "suit": SUIT_SYMBOLS[card[-1]], "red": card[-1] in "HD", "code": card}

    def roster(self, scenario, deck: dict) -> list[dict]:
        variants = scenario.data["variants"]
        styles = scenario.side_views
        tiles: dict[str, list] = {}
        for turn in deck["turns"]:
            for d in turn["draws"]:
                tiles.setdefault(d["code"], []).append(self.card_label(d["card"]))
        rows = []
        for unit in self.units(scenario):
            data = unit["data"]
            utype = self.unit_type(data["type"], variants)
            style = styles[unit["side"]]
            poor = data["quality"] == "poor"
            power = max(self.rules["battle"]["minimum_power"], utype["battle_power"] + (self.rules["quality"]["poor_modifier"] if poor else 0))
            rows.append({
                "code": unit["code"],
                "name": unit["name"],
                "side": unit["side"],
                "side_name": style.name,
                "colour": style.colour,
                "badge": style.badge,
                "marker": unit_uri(utype["glyph"], style.colour, style.shape),
                "type": utype["name"],
                "glyph": utype["glyph"],
                "quality": data["quality"],
                "square": square_name(*data["at"]),
                "facing": data["facing"],
                "move": utype["move"],
                "battle_power": power,
                "range": utype["range"] or "",
                "arc": utype["arc"],
                "contours": utype["contours"],
                "fires": bool(utype["range"]),
                "indirect": utype["weapon"] == "artillery",
                "advance": utype["advance"],
                "tiles": tiles[unit["code"]],
            })
        return rows

    def map_svg(self, scenario):
        data = scenario.data
        m = GridMap(data["grid"]["columns"], data["grid"]["rows"])
        terrain = self.terrain_map(scenario)
        for (c, r), cell in sorted(terrain.items()):
            if cell["level"]:
                m.level(c, r, cell["level"])
        for entry in data["terrain"]:
            if entry["kind"] in ("woods", "town", "fortification"):
                for c, r in squares_of(entry):
                    m.area(entry["kind"], c, r)
        for kind in ("river", "road"):
            for entry in data["terrain"]:
                if entry["kind"] == kind:
                    m.path(kind, squares_of(entry))
        # a square holding both a road and a river is a bridge; its deck follows the road's direction there
        for entry in data["terrain"]:
            if entry["kind"] != "road":
                continue
            sq = squares_of(entry)
            for i, (c, r) in enumerate(sq):
                if "river" in terrain.get((c, r), {"kinds": set()})["kinds"]:
                    near = [sq[j] for j in (i - 1, i + 1) if 0 <= j < len(sq)]
                    m.bridge(c, r, horizontal=any(n[1] == r for n in near) if near else True)
        for entry in data["terrain"]:
            if entry.get("name"):
                m.label(*squares_of(entry)[0], entry["name"])
        for obj in data["objectives"]:
            m.objective(*obj["at"])
        styles = scenario.side_views
        for unit in self.units(scenario):
            style = styles[unit["side"]]
            utype = self.types[unit["data"]["type"]]
            m.unit(*unit["data"]["at"], utype["glyph"], style.colour, style.shape, unit["data"]["facing"], unit["code"])
        names = {"hill-1": "Hill, contour 1", "hill-2": "Hill, contour 2", "hill-3": "Hill, contour 3", "woods": "Woods (cover)",
                 "town": "Town (cover; counts as road)", "fortification": "Fortifications", "road": "Road", "river": "River",
                 "bridge": "Bridge (road over river)", "objective": "Objective"}
        legend = [{"label": names.get(k, k), "image": m.swatch_uri(k)} for k in sorted(m.used, key=lambda k: list(names).index(k) if k in names else 99)]
        return m.svg(), legend

    def pack(self, prepared: GridPrepared) -> dict:
        scenario = prepared.scenario
        rules = self.rules
        data = scenario.data
        variants = tuple(data["variants"])
        styles = prepared.sides
        roster = prepared.roster
        by_code = {r["code"]: r for r in roster}
        deck = prepared.deck
        schedule = [{
            "turn": turn["turn"],
            "draws": [{**self.card_label(d["card"]), "unit": by_code[d["code"]]} for d in turn["draws"]],
        } for turn in deck["turns"]]
        tables = {t.id: t for t in self.odds(variants)}
        powers = odds.power_range(rules)
        battle = {(r["attacker"], r["defender"]): r for r in tables["battle"].rows}
        matrix = [{"attacker": a, "cells": [{"win": battle[(a, d)]["win_destroy"] + battle[(a, d)]["win_retreat"],
                                              "destroy": battle[(a, d)]["win_destroy"]} for d in powers]} for a in powers]
        svg, legend = prepared.map, prepared.legend
        glyph_legend = []
        seen = set()
        for r in roster:
            if r["type"] not in seen:
                seen.add(r["type"])
                glyph_legend.append({"label": r["type"], "image": unit_uri(r["glyph"], "#444444", "circle")})
        scheme_id = odds.scatter_id(rules, variants)
        scheme = rules["artillery"]["scatter"][scheme_id]
        spots = {s["id"]: s["name"] for s in rules["artillery"]["landing"]}
        scatter = [{"face": int(k), "lands": spots[v]} for k, v in sorted(scheme["faces"].items())]
        costs = self.costs(variants)
        return {
            "grid": {**data["grid"], "last": square_name(data["grid"]["columns"] - 1, data["grid"]["rows"] - 1)},
            "turns": data["turns"],
            "map": svg,
            "legend": legend,
            "glyph_legend": glyph_legend,
            "objectives": [{"name": o["name"], "square": square_name(*o["at"]), "points": o.get("points")} for o in data["objectives"]],
            "forces": [{
                "name": st.name, "colour": st.colour, "colour_name": st.colour_name, "shape": st.shape, "badge": st.badge,
                "letter": chr(ord("A") + st.index),
                "units": [r for r in roster if r["side"] == st.index],
            } for st in styles],
            "schedule": schedule,
            "unit_count": len(roster),
            "odds": tables,
            "battle_powers": list(powers),
            "battle_matrix": matrix,
            "scatter": {"name": scheme["name"], "faces": scatter},
            "costs": {k: str(v) for k, v in costs.items()},
            "variants": [{"id": v["id"], "name": v["name"], "summary": v["summary"]} for v in self.active(variants)],
            "unit_types": [self.unit_type(t["id"], variants) for t in rules["unit_types"]],
            "rules": rules,
        }

    def cards(self, prepared: GridPrepared, card_size: str) -> list[dict]:
        """One card per unit: its marker, its numbers, where it starts, and its tile for every turn."""
        out = []
        for r in prepared.roster:
            lines = []
            if r["fires"]:
                lines.append(f"Fires in the Artillery Fire Phase: range {r['range']}, arc {r['arc']}\u00b0"
                             + ("" if r["indirect"] else "; never indirectly; off target is a miss") + ".")
                lines.append("If it fires: remove its tile; it may not move this turn.")
            if r["advance"]:
                lines.append("After winning a battle it may move into the square the loser left.")
            lines.append(f"Hills: up or down {r['contours']} contour{'s' if r['contours'] > 1 else ''} a step.")
            out.append({**r, "kind": "unit", "text": lines})
        return out


SYSTEM = MorschauserModern()
