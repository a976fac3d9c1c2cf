"""Para Bellum (seed 003): D6 action points cut by Stress and raised by Take Action! orders, Short and Long actions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...schema import Bool, Checker, Choice, Int, Key, ListOf, Record, Str
from ...scenario import NAME_PATTERN
from ..base import Prepared, System
from . import cardfit, odds, plans

DISCIPLINE = "discipline"


def _name(doc: str, length: int = 40) -> Key:
    return Key("name", Str(length, NAME_PATTERN, "a name (no control characters, < > { } or \\)"), doc)


def _face_groups(points: list[int]) -> list[dict]:
    """Runs of D6 faces that give the same points: [{'label': '2-5', 'points': 2}, ...], face 1 first."""
    groups: list[dict] = []
    for face, value in enumerate(points, 1):
        if groups and groups[-1]["points"] == value and groups[-1]["last"] == face - 1:
            groups[-1]["last"] = face
        else:
            groups.append({"first": face, "last": face, "points": value})
    for g in groups:
        g["label"] = str(g["first"]) if g["first"] == g["last"] else f"{g['first']}\u2013{g['last']}"
    return groups


@dataclass
class ForcesPrepared(Prepared):
    """A Para Bellum build worked out once: each side's units with their stress tracks and action plans."""

    forces: list[dict] = field(default_factory=list)


class ParaBellum(System):
    id = "para-bellum"
    # rules.yaml `deck`: no deck in the seed, and a pre-rolled sheet would spoil the order's gamble
    no_deck = ("para-bellum has no card deck: players alternate activations and roll a D6 for action points as each "
               "unit activates (a pre-rolled sheet would show the roll before the Take Action! order is decided). "
               "`muster build` prints the unit, command-point and action cards.")
    appendix_parts = ("odds", "plans", "reference")
    uses_seed = False
    # every size has its own measured geometry (cardfit.GEOMETRY) and styles (cards.css)
    card_sizes = ("poker", "mini", "tarot")
    title = "Para Bellum"
    folder = Path(__file__).parent

    # --- rule data shortcuts ------------------------------------------------------------
    @property
    def tags(self) -> list[str]:
        return [t["name"] for t in self.rules["weapon_tags"]]

    def variants(self) -> dict[str, str]:
        return {name: v["summary"] for name, v in self.rules["variants"].items()}

    # --- schema ---------------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        return [
            Key("variants", ListOf(Choice(list(self.variants()), "a rule variant, one of"), max=4),
                "Named rule variants to play: `discipline` rolls action points as a discipline test.", required=False, default=[]),
        ]

    def side_keys(self) -> list[Key]:
        rules = self.rules
        weapon = Record([
            _name("The weapon's name as printed."),
            Key("tags", ListOf(Choice(self.tags, "a weapon tag, one of"), max=len(self.tags)),
                "Special rules: heavy (fired only by a Long Fire!), assault (may Fire! and Charge!).", required=False, default=[]),
        ], after=self._distinct_tags)
        unit = Record([
            _name("The unit's name (its cards carry it)."),
            Key("models", Int(1, 100), "How many models the unit has; it acts as a whole."),
            Key("movement", Int(0, 48), "Movement Value in inches: Move! and Charge! go this far, Run! twice as far."),
            Key("weapons", ListOf(weapon, max=8), "The unit's ranged weapons, each with its tags.", required=False, default=[]),
            Key("hq", Bool(), "An HQ unit: it holds Command Points to order Take Action!.", required=False, default=False),
            Key("command_points", Int(1, rules["hq"]["command_points_max"]), "An HQ's Command Points (one per Take Action! order).", required=False),
            Key("stress", Int(0, rules["stress"]["max"]), "Stress points the unit starts with.", required=False, default=0),
            Key(DISCIPLINE, Int(rules["variants"][DISCIPLINE]["min"], rules["variants"][DISCIPLINE]["max"]),
                "Discipline score needed on a D6 (2 to 6); required with the discipline variant, refused without it.", required=False),
        ], after=self._hq_points)
        return [Key("units", ListOf(unit, min=1, max=30), "The side's units, HQs among them.")]

    @staticmethod
    def _distinct_tags(weapon: dict, path, ck: Checker) -> None:
        tags = weapon["tags"]
        for i, tag in enumerate(tags):
            if tag in tags[:i]:
                ck.report(path + ("tags", i), f"the tag {tag!r} is given twice")

    @staticmethod
    def _hq_points(unit: dict, path, ck: Checker) -> None:
        if unit["hq"] and unit.get("command_points") is None:
            ck.report(path, "an HQ unit needs command_points (1 or more), the Command Points it spends on Take Action! orders")
        if not unit["hq"] and unit.get("command_points") is not None:
            ck.report(path + ("command_points",), "only an HQ unit (hq: true) has command points")

    # --- validation beyond shape -------------------------------------------------------
    def check(self, scenario, ck: Checker) -> list:
        variant_on = DISCIPLINE in scenario.data["variants"]
        seen: dict[str, tuple] = {}
        for i, name in enumerate(scenario.data["variants"]):
            if name in scenario.data["variants"][:i]:
                ck.report(("variants", i), f"the variant {name!r} is listed twice")
        for s, side in enumerate(scenario.sides):
            for u, unit in enumerate(side["units"]):
                path = ("sides", s, "units", u)
                if unit["name"] in seen:
                    ck.report(path + ("name",), f"two units are named {unit['name']!r}; their cards must differ")
                seen[unit["name"]] = path
                if variant_on and unit.get(DISCIPLINE) is None:
                    ck.report(path, "the discipline variant is on: every unit needs a discipline score (2 to 6)")
                if not variant_on and unit.get(DISCIPLINE) is not None:
                    ck.report(path + (DISCIPLINE,), "discipline is only used by the discipline variant; add `variants: [discipline]` or remove it")
        return []

    # --- computing ----------------------------------------------------------------------
    def odds(self, variants=()) -> list:
        return odds.all_tables(self.rules, tuple(variants))

    def prepare(self, scenario, seed: int, passes: int | None = None) -> ForcesPrepared:
        return ForcesPrepared(scenario, seed, None, self._forces(scenario))

    def _discipline(self, scenario, unit: dict) -> int | None:
        return unit.get(DISCIPLINE) if DISCIPLINE in scenario.data["variants"] else None

    def _weapons(self, unit: dict) -> list[dict]:
        return [{"name": w["name"], "tags": list(w["tags"]), "tag_text": ", ".join(w["tags"])} for w in unit["weapons"]]

    def _fire_charge(self, weapons: list[dict]) -> str:
        """A sentence saying whether this unit's weapons leave Fire! and Charge! open, and with which Fire!."""
        rule = self.rules["fire_and_charge"]
        acts = plans.actions(self.rules)
        if not weapons:
            return "No ranged weapons: no Fire!; Charge! is always open."
        open_with = []
        for aid, act in acts.items():
            if act["action"] != rule["fire"]:
                continue
            shot = plans.fired(aid, weapons, self.rules)
            if shot and all(rule["tag"] in w["tags"] for w in shot):
                open_with.append(f"{act['name']} ({self.rules['kinds'][act['kind']]['label']})")
        if not open_with:
            return "Fires non-Assault weapons: no Charge! in an activation with Fire!."
        return "May Fire! and Charge! in one activation with " + " or ".join(open_with) + "."

    def _plans(self, unit_weapons: list[dict]) -> dict[int, list[dict]]:
        everything = plans.all_plans(self.rules)
        mine = plans.for_unit(everything, unit_weapons, self.rules)
        out: dict[int, list[dict]] = {n: [] for n in range(1, self.rules["action_points"]["max"] + 1)}
        for p in mine:
            out[p.cost].append(self._plan_row(p))
        return out

    def _plan_row(self, p: plans.Plan) -> dict:
        return {
            "text": plans.plan_text(p, self.rules),
            "abbr": plans.plan_text(p, self.rules, short=True),
            "mark": " \u2020" if p.wastes_aim else "",
            "wastes_aim": p.wastes_aim,
            "fire_and_charge": p.fire_and_charge,
            "cost": p.cost,
        }

    def _stress_track(self, discipline: int | None, start: int) -> dict:
        """The card's stress track: per level, the points each run of D6 faces gives without and with an order."""
        rules = self.rules
        points = odds.roll_points(rules, discipline)
        groups = _face_groups(points)
        levels = odds.stress_levels(rules, discipline)
        cells = []
        for stress in levels:
            cells.append({
                "start": stress == min(start, levels[-1]),
                "label": f"{stress}+" if stress == levels[-1] and stress > 0 else str(stress),
                "plain": "\u00b7".join(str(odds.points_for(rules, g["points"], stress, False)) for g in groups),
                "ordered": "\u00b7".join(str(odds.points_for(rules, g["points"], stress, True)) for g in groups),
            })
        return {"faces": " \u00b7 ".join(g["label"] for g in groups), "levels": cells}

    def _unit(self, scenario, unit: dict) -> dict:
        rules = self.rules
        weapons = self._weapons(unit)
        discipline = self._discipline(scenario, unit)
        by_points = self._plans(weapons)
        start = unit["stress"]
        plain = odds.action_points(rules, start, False, discipline)
        ordered = odds.action_points(rules, start, True, discipline)
        return {
            "name": unit["name"],
            "models": unit["models"],
            "movement": unit["movement"],
            "run": unit["movement"] * 2,
            "weapons": weapons,
            "hq": unit["hq"],
            "command_points": unit.get("command_points") or 0,
            "stress": start,
            "discipline": discipline,
            "fire_charge": self._fire_charge(weapons),
            "plans": [{"points": n, "plans": by_points[n], "count": len(by_points[n])} for n in by_points],
            "start": {
                "expected": plain.mean(), "expected_ordered": ordered.mean(),
                "none": plain[rules["action_points"]["min"]], "none_ordered": ordered[rules["action_points"]["min"]],
            },
            "track": self._stress_track(discipline, start),
        }

    def _forces(self, scenario) -> list[dict]:
        styles = scenario.side_views
        out = []
        for s, side in enumerate(scenario.sides):
            st = styles[s]
            units = [self._unit(scenario, u) for u in side["units"]]
            out.append({
                "name": st.name, "colour": st.colour, "shape": st.shape, "badge": st.badge,
                "units": units,
                "models": sum(u["models"] for u in units),
                "command_points": sum(u["command_points"] for u in units),
                "hqs": sum(1 for u in units if u["hq"]),
            })
        return out

    def _ap_blocks(self, scenario, variants) -> list[dict]:
        """The action-point table as blocks of rows (one block per discipline score in play), each row a stress level."""
        table = odds.action_points_table(self.rules, variants)
        values = odds.point_values(self.rules)
        blocks: dict = {}
        for row in table.rows:
            key = row.get("discipline")
            cells = {"cells": [row[f"ap{n}"] for n in values], "expected": row["expected"]}
            block = blocks.setdefault(key, {"discipline": key, "rows": {}})
            entry = block["rows"].setdefault(row["stress"], {"stress": row["stress"]})
            entry["ordered" if row["order"] else "plain"] = cells
        used = {u.get(DISCIPLINE) for side in scenario.sides for u in side["units"]}
        out = []
        for key, block in blocks.items():
            if key is not None and key not in used:
                continue
            rows = list(block["rows"].values())
            for r in rows:
                r["label"] = f"{r['stress']}+" if r is rows[-1] and r["stress"] > 0 else str(r["stress"])
            out.append({"discipline": key, "rows": rows})
        return out

    def _order_table(self, scenario, variants):
        """The order-value table, cut to the discipline scores the scenario's units have."""
        table = odds.order_value_table(self.rules, variants)
        used = {u.get(DISCIPLINE) for side in scenario.sides for u in side["units"]}
        table.rows = [r for r in table.rows if "discipline" not in r or r["discipline"] in used]
        return table

    def pack(self, prepared: ForcesPrepared) -> dict:
        scenario = prepared.scenario
        rules = self.rules
        variants = tuple(scenario.data["variants"])
        acts = plans.actions(rules)
        reference_plans = [
            {"points": n, "plans": [self._plan_row(p) for p in plans.all_plans(rules) if p.cost == n]}
            for n in range(1, rules["action_points"]["max"] + 1)
        ]
        return {
            "forces": prepared.forces,
            "variants": [{"id": v, **rules["variants"][v]} for v in variants],
            "ap_blocks": self._ap_blocks(scenario, variants),
            "ap_values": odds.point_values(rules),
            "order_table": self._order_table(scenario, variants),
            "plans_reference": reference_plans,
            "actions": [{**a, "kind_label": rules["kinds"][a["kind"]]["label"]} for a in acts.values()],
            "weapon_tags": rules["weapon_tags"],
            "rules": {"source": rules["source"], "fire_and_charge": rules["fire_and_charge"]["rule"],
                      "order": rules["order"]["rule"], "activation": rules["activation"]["rule"]},
        }

    # --- cards ------------------------------------------------------------------------------
    def cards(self, prepared: ForcesPrepared, card_size: str) -> list[dict]:
        geo = cardfit.geometry(card_size)
        styles = prepared.sides
        out: list[dict] = []
        for s, side in enumerate(prepared.forces):
            look = {"side": side["name"], "colour": side["colour"], "badge": side["badge"], "shape": styles[s].shape, "fit": geo}
            for unit in side["units"]:
                groups = [{"points": g["points"], "plans": g["plans"]} for g in unit["plans"] if g["plans"]]
                pages = cardfit.paginate(cardfit.unit_blocks(unit, geo), groups, geo)
                total = len(pages)
                for i, page in enumerate(pages):
                    kind = ("pb-unit" + (" pb-hq" if unit["hq"] else "")) if i == 0 else "pb-plans"
                    out.append({**look, "kind": kind, "unit": unit, "items": page, "part": i + 1, "parts": total,
                                "groups": [item for item in page if item["block"] == "plans"]})
                if unit["hq"]:
                    out.append({**look, "kind": "pb-command", "unit": unit, "boxes": list(range(1, unit["command_points"] + 1)),
                                "order": self.rules["order"]["rule"], "cost": self.rules["order"]["cost"]})
        out.extend({**card, "fit": geo} for card in self._action_cards())
        return out

    def _action_cards(self) -> list[dict]:
        """One card for each of the six actions; Fire! shows both its Short and Long forms."""
        rules = self.rules
        grouped: dict[str, list[dict]] = {}
        for act in plans.actions(rules).values():
            grouped.setdefault(act["action"], []).append(act)
        cards = []
        for forms in grouped.values():
            extra = []
            if any(f.get("bonus_for") for f in forms):
                extra.append("Its bonus is lost unless Fire! follows in the same activation.")
            if forms[0]["action"] in (rules["fire_and_charge"]["fire"], rules["fire_and_charge"]["charge"]):
                extra.append(rules["fire_and_charge"]["rule"])
            if any(f.get("alone") for f in forms):
                extra.append("Never combined with another action.")
            cards.append({
                "kind": "pb-action",
                "name": forms[0]["name"],
                "forms": [{"label": rules["kinds"][f["kind"]]["label"], "cost": f["cost"], "abbr": f["abbr"], "rule": f["rule"]} for f in forms],
                "extra": extra,
                "once": "Once an activation.",
            })
        return cards


SYSTEM = ParaBellum()
