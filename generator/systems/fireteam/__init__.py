"""Fireteam Tomorrow (seed 001): teams of 3 to 6, a Move and a Fire card each, opposed 2D6 fire, recovery on 8+."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ...decks import rng_for, shuffled
from ...schema import Bool, Checker, Choice, Int, Key, ListOf, Num, Numbers, Record, Str
from ...scenario import NAME_PATTERN
from ..base import Prepared, System
from . import odds
from .map import TableMap

SHAPE_KEYS = ("rect", "circle", "polygon", "line")


@dataclass
class FireteamPrepared(Prepared):
    """A Fireteam build worked out once: the deck in printed order before shuffling, and the map."""

    cards: list[dict] = field(default_factory=list)
    map: str = ""


def _name(doc: str) -> Key:
    return Key("name", Str(40, NAME_PATTERN, "a name (no control characters, < > { } or \\)"), doc)


class FireteamTomorrow(System):
    id = "fireteam-tomorrow"
    title = "Fireteam Tomorrow"
    folder = Path(__file__).parent

    # --- rule data shortcuts ------------------------------------------------------------
    @property
    def qualities(self) -> list[str]:
        return self.rules["qualities"]

    @property
    def weapons(self) -> dict[str, dict]:
        """The weapon table with every flag spelled out (absent in the rule data means no)."""
        base = {"hth_bonus": False, "mg": False, "explosive": False, "blast": 0}
        return {w["name"]: {**base, **w} for w in self.rules["weapons"]}

    @property
    def armour(self) -> dict[str, dict]:
        return {a["name"]: a for a in self.rules["armour"]}

    @property
    def roles(self) -> dict[str, dict]:
        return {r["name"]: r for r in self.rules["roles"]}

    @property
    def terrain_kinds(self) -> dict[str, dict]:
        return {t["name"]: t for t in self.rules["terrain"]}

    @property
    def cover_levels(self) -> list[str]:
        return [c["name"] for c in self.rules["cover"]]

    # --- schema ---------------------------------------------------------------------------
    def scenario_keys(self) -> list[Key]:
        feature = Record([
            Key("kind", Choice(list(self.terrain_kinds), "a terrain kind, one of"), "The kind of terrain; it sets the default cover."),
            Key("name", Str(40, NAME_PATTERN, "a label"), "A label printed on the map.", required=False, default=""),
            Key("cover", Choice(self.cover_levels, "a cover level, one of"), "Cover for figures in or behind it; defaults to the kind's.", required=False),
            Key("rect", Numbers(("x", "y", "width", "depth"), 0, 480), "A rectangle in inches from the table's top-left corner.", required=False),
            Key("circle", Numbers(("x", "y", "radius"), 0, 480), "A circle in inches.", required=False),
            Key("polygon", ListOf(Numbers(("x", "y"), 0, 480), min=3, max=64), "Corner points [x, y] in inches.", required=False),
            Key("line", ListOf(Numbers(("x", "y"), 0, 480), min=2, max=64), "A road, river, wall or hedge along these points.", required=False),
            Key("width", Num(0.2, 24), "The width of a line feature in inches.", required=False),
        ], after=self._one_shape)
        objective = Record([
            _name("The objective's name as printed on the map."),
            Key("at", Numbers(("x", "y"), 0, 480), "Where it is, in inches from the top-left corner."),
            Key("points", Int(0, 100), "Victory points, if the scenario scores them.", required=False),
        ])
        table = Record([
            Key("width", Int(12, 480), "Table width in inches (left to right)."),
            Key("depth", Int(12, 480), "Table depth in inches (top to bottom)."),
        ])
        return [
            Key("table", table, "The table's size in inches.", required=False, default={"width": 72, "depth": 48}),
            Key("passes", Int(1, 40), "How many passes through the deck the run-sheet prints (the game's length).", required=False, default=6),
            Key("terrain", ListOf(feature, max=120), "Terrain pieces drawn on the map.", required=False, default=[]),
            Key("objectives", ListOf(objective, max=20), "Objectives marked on the map.", required=False, default=[]),
        ]

    def side_keys(self) -> list[Key]:
        figure = Record([
            Key("role", Choice(list(self.roles), "a role, one of"), "trooper, leader, medic or fixer.", required=False, default="trooper"),
            Key("weapon", Choice(list(self.weapons), "a weapon from the rule data, one of"), "The figure's weapon (see the weapon table).", required=False),
            Key("quality", Choice(self.qualities, "a troop quality, one of"), "This figure's quality when it differs from its team's.", required=False),
            Key("name", Str(40, NAME_PATTERN, "a name"), "A name for the figure.", required=False),
            Key("count", Int(1, 50), "How many identical figures this line stands for.", required=False, default=1),
        ])
        team = Record([
            _name("The team's name (its cards carry it)."),
            Key("quality", Choice(self.qualities, "a troop quality, one of"), "Poor, Fair, Good, Elite or Hero."),
            Key("armour", Choice(list(self.armour), "an armour level, one of"), "none, light, medium or heavy.", required=False, default="none"),
            Key("player", Str(40, NAME_PATTERN, "a name"), "Who plays this team (each player controls one team).", required=False),
            Key("jump_packs", Bool(), "Whether the team wears jump packs.", required=False, default=False),
            Key("group", Bool(), "A group of less capable fighters (Poor or Fair), allowed more than six figures.", required=False, default=False),
            Key("figures", ListOf(figure, min=1, max=60), "The figures, one line each or with a count."),
        ])
        vehicle = Record([
            _name("The vehicle's name."),
            Key("kind", Choice(self.rules["vehicles"]["kinds"], "a vehicle kind, one of"), "tracked, wheeled, hovercraft or helicopter."),
            Key("quality", Choice(self.qualities, "a troop quality, one of"), "The crew's quality."),
            Key("weapons", ListOf(Choice(list(self.weapons), "a weapon from the rule data, one of"), min=1, max=4), "The vehicle's weapons."),
            Key("player", Str(40, NAME_PATTERN, "a name"), "Who drives it.", required=False),
        ])
        return [
            Key("teams", ListOf(team, min=1, max=16), "The side's fireteams."),
            Key("vehicles", ListOf(vehicle, max=8), "Tracked, wheeled or flying vehicles.", required=False, default=[]),
            Key("deployment", Numbers(("x", "y", "width", "depth"), 0, 480), "The deployment zone in inches.", required=False),
        ]

    @staticmethod
    def _one_shape(feature: dict, path, ck: Checker) -> None:
        given = [k for k in SHAPE_KEYS if feature.get(k) is not None]
        if len(given) != 1:
            ck.report(path, f"a terrain piece has exactly one shape of {', '.join(SHAPE_KEYS)} (got {len(given) or 'none'})")
        if feature.get("line") is not None and feature.get("width") is None:
            ck.report(path, "a line feature needs a width in inches")

    # --- validation beyond shape -------------------------------------------------------
    def figures(self, team: dict) -> list[dict]:
        """A team's figures one by one, with medics' default pistols filled in."""
        out = []
        for fig in team["figures"]:
            role = self.roles[fig["role"]]
            weapon = fig.get("weapon") or role.get("default_weapon")
            for _ in range(fig["count"]):
                out.append({**fig, "weapon": weapon, "quality": fig.get("quality") or team["quality"]})
        return out

    def check(self, scenario, ck: Checker) -> list:
        limits = self.rules["limits"]
        warnings = []
        total = 0
        players: dict[str, tuple] = {}
        team_names: dict[str, tuple] = {}
        teams = 0
        vehicles = 0
        table = scenario.data["table"]
        for s, side in enumerate(scenario.sides):
            for t, team in enumerate(side["teams"]):
                path = ("sides", s, "teams", t)
                teams += 1
                self._check_team(team, path, ck)
                total += sum(f["count"] for f in team["figures"])
                if team["name"] in team_names:
                    ck.report(path + ("name",), f"two teams are named {team['name']!r}; their cards must differ")
                team_names[team["name"]] = path
                if team.get("player"):
                    if team["player"] in players:
                        ck.report(path + ("player",), f"{team['player']!r} already plays another team; each player controls one team")
                    players[team["player"]] = path
            for v, vehicle in enumerate(side["vehicles"]):
                vehicles += 1
                path = ("sides", s, "vehicles", v)
                if vehicle["name"] in team_names:
                    ck.report(path + ("name",), f"{vehicle['name']!r} is already the name of a team or vehicle")
                team_names[vehicle["name"]] = path
            if side.get("deployment"):
                self._inside(side["deployment"], table, ("sides", s, "deployment"), ck)
        if teams > limits["players_max"]:
            ck.report(("sides",), f"at most {limits['players_max']} players, and each player controls one team (found {teams} teams)")
        if total > limits["figures_max"]:
            ck.report(("sides",), f"at most {limits['figures_max']} figures in a game (found {total})")
        if vehicles > limits["vehicles_warn_above"]:
            warnings.append((("sides",), f"{vehicles} vehicles: the rules advise very rarely more than {limits['vehicles_warn_above']}"))
        for i, feature in enumerate(scenario.data["terrain"]):
            self._check_feature(feature, table, ("terrain", i), ck)
        for i, objective in enumerate(scenario.data["objectives"]):
            x, y = objective["at"]
            if x > table["width"] or y > table["depth"]:
                ck.report(("objectives", i, "at"), f"off the {table['width']}\" x {table['depth']}\" table")
        return warnings

    def _check_team(self, team: dict, path, ck: Checker) -> None:
        limits = self.rules["limits"]
        figures = self.figures(team)
        count = len(figures)
        large = limits["large_group"]["qualities"]
        if count < limits["team_min"]:
            ck.report(path, f"a fireteam has {limits['team_min']} to {limits['team_max']} figures, found {count}")
        elif count > limits["team_max"] and not (team["group"] and team["quality"] in large):
            hint = (f"; only a group (group: true) of {' or '.join(large)} fighters may be larger"
                    if not team["group"] else f"; a group larger than six must be {' or '.join(large)}")
            ck.report(path, f"a fireteam has {limits['team_min']} to {limits['team_max']} figures, found {count}{hint}")
        leaders = sum(1 for f in figures if f["role"] == "leader")
        if leaders != limits["leaders_per_team"]:
            ck.report(path + ("figures",), f"a team has one leader, found {leaders}")
        specials = [f["weapon"] for f in figures if f["weapon"] and self.weapons[f["weapon"]]["class"] in ("special", "heavy")]
        if len(specials) > limits["special_or_heavy_per_team"]:
            ck.report(path + ("figures",), f"at most one special or heavy weapon a team, found {len(specials)} ({', '.join(specials)})")
        medics = sum(1 for f in figures if f["role"] in ("medic", "fixer"))
        if medics > limits["medics_per_team"]:
            ck.report(path + ("figures",), f"at most one medic (or fixer) a team, found {medics}")
        for i, fig in enumerate(team["figures"]):
            if not (fig.get("weapon") or self.roles[fig["role"]].get("default_weapon")):
                ck.report(path + ("figures", i), "missing key 'weapon' (the figure's weapon)")
            elif self.weapons[fig.get("weapon") or self.roles[fig["role"]]["default_weapon"]]["class"] == "vehicle":
                ck.report(path + ("figures", i, "weapon"), f"{fig['weapon']!r} is a vehicle weapon")
        if figures and all(f["quality"] == "Hero" for f in figures):
            ck.report(path + ("quality",), "heroes are very rare, and no entire team is made up of them")

    def _inside(self, rect, table, path, ck: Checker) -> None:
        x, y, w, h = rect
        if x + w > table["width"] + 1e-9 or y + h > table["depth"] + 1e-9:
            ck.report(path, f"reaches off the {table['width']}\" x {table['depth']}\" table")

    def _check_feature(self, feature, table, path, ck: Checker) -> None:
        if feature.get("rect"):
            self._inside(feature["rect"], table, path + ("rect",), ck)
        pts = []
        if feature.get("circle"):
            x, y, r = feature["circle"]
            pts = [(x - r, y - r), (x + r, y + r)]
        for key in ("polygon", "line"):
            if feature.get(key):
                pts = feature[key]
        for x, y in pts:
            if not (-1e-9 <= x <= table["width"] + 1e-9 and -1e-9 <= y <= table["depth"] + 1e-9):
                ck.report(path, f"reaches off the {table['width']}\" x {table['depth']}\" table")
                break

    # --- computing ----------------------------------------------------------------------
    def odds(self, variants=()) -> list:
        return odds.all_tables(self.rules)

    def units(self, scenario) -> list[dict]:
        """Every team and vehicle in order, with a short code used for card ids: S1T2, S2V1."""
        out = []
        for s, side in enumerate(scenario.sides):
            for t, team in enumerate(side["teams"]):
                out.append({"code": f"S{s + 1}T{t + 1}", "side": s, "name": team["name"], "vehicle": False, "data": team})
            for v, vehicle in enumerate(side["vehicles"]):
                out.append({"code": f"S{s + 1}V{v + 1}", "side": s, "name": vehicle["name"], "vehicle": True, "data": vehicle})
        return out

    def deck_cards(self, scenario) -> list[dict]:
        """The deck in its printed order, before shuffling: each unit's cards, then the shared ones."""
        deck = self.rules["deck"]
        styles = scenario.side_views
        cards = []
        for unit in self.units(scenario):
            kinds = deck["per_vehicle"] if unit["vehicle"] else deck["per_team"]
            for kind in kinds:
                cards.append({
                    "id": f"{unit['code']}-{kind.lower()}",
                    "type": kind,
                    "unit": unit["name"],
                    "unit_code": unit["code"],
                    "vehicle": unit["vehicle"],
                    "side": styles[unit["side"]].name,
                    "side_index": unit["side"],
                    "jump_packs": bool(unit["data"].get("jump_packs")),
                })
        for kind in deck["shared"]:
            cards.append({"id": kind.lower(), "type": kind, "unit": "", "unit_code": "", "vehicle": False, "side": "", "side_index": -1, "jump_packs": False})
        return cards

    def prepare(self, scenario, seed: int, passes: int | None = None) -> FireteamPrepared:
        cards = self.deck_cards(scenario)
        count = passes or scenario.data["passes"]
        ids = [c["id"] for c in cards]
        # seed 001: "shuffling and reusing after all have been used" -> each pass a fresh shuffle
        runs = [shuffled(ids, rng_for(seed, f"pass-{p + 1}")) for p in range(count)]
        deck = {"system": self.id, "scenario": scenario.title, "seed": seed, "cards": cards, "passes": runs}
        return FireteamPrepared(scenario, seed, deck, cards, self.map_svg(scenario))

    def deck_text(self, deck: dict) -> str:
        names = {c["id"]: (f"{c['side']}: {c['unit']} {c['type']}" if c["unit"] else c["type"]) for c in deck["cards"]}
        lines = [f"{deck['scenario']}: seed {deck['seed']}, {len(deck['cards'])} cards"]
        for p, run in enumerate(deck["passes"], 1):
            lines.append(f"Pass {p}:")
            lines += [f"  {i:2}. {names[c]}" for i, c in enumerate(run, 1)]
        return "\n".join(lines)

    def _figure_rows(self, team: dict) -> list[dict]:
        rows = []
        for n, fig in enumerate(self.figures(team), 1):
            w = self.weapons[fig["weapon"]]
            rows.append({
                "n": n,
                "name": fig.get("name") or "",
                "role": fig["role"],
                "quality": fig["quality"],
                "quality_differs": fig["quality"] != team["quality"],
                "weapon": w["name"],
                "level": w["level"],
                "range": w["range"] if w["range"] == "LOT" else (f'{w["range"]}"' if w["range"] else "contact"),
                "tags": ", ".join(t for t, on in (("MG", w["mg"]), (f'blast {w["blast"]}"', w["explosive"]), ("HTH +2", w["hth_bonus"])) if on),
            })
        return rows

    def _matchups(self, scenario, s: int, team: dict) -> list[dict]:
        """This team firing at each enemy team, in each cover level, without and with its leader's +1."""
        q = self.qualities.index
        rows = []
        for e, enemy_side in enumerate(scenario.sides):
            if e == s:
                continue
            for enemy in enemy_side["teams"]:
                base = q(team["quality"]) - q(enemy["quality"])
                cells = []
                for c in self.rules["cover"]:
                    net = base - c["defence"]
                    cells.append({"cover": c["name"], "plain": odds.fire_hit(net, self.rules), "leader": odds.fire_hit(net + 1, self.rules)})
                rows.append({"enemy": enemy["name"], "side": enemy_side["name"], "quality": enemy["quality"], "cells": cells})
            for vehicle in enemy_side["vehicles"]:
                # seed 001: only MGs and explosives affect vehicles, and their armour is heavy +2
                armour = self.rules["vehicle_armour"]["fire_defence"]
                base = q(team["quality"]) - q(vehicle["quality"]) - armour
                cells = [{"cover": c["name"], "plain": odds.fire_hit(base - c["defence"], self.rules),
                          "leader": odds.fire_hit(base - c["defence"] + 1, self.rules)} for c in self.rules["cover"]]
                rows.append({"enemy": vehicle["name"] + " (MG or explosive only)", "side": enemy_side["name"],
                             "quality": vehicle["quality"], "cells": cells})
        return rows

    def pack(self, prepared: FireteamPrepared) -> dict:
        scenario = prepared.scenario
        rules = self.rules
        styles = prepared.sides
        loss = Fraction(rules["morale"]["side_loss_fraction"])
        sides = []
        for s, side in enumerate(scenario.sides):
            teams = []
            for team in side["teams"]:
                figs = self._figure_rows(team)
                teams.append({
                    "name": team["name"],
                    "player": team.get("player") or "",
                    "quality": team["quality"],
                    "armour": team["armour"],
                    "jump_packs": team["jump_packs"],
                    "group": team["group"],
                    "figures": figs,
                    "recovery": {
                        "base": odds.recover(odds.recovery_modifier(rules, team["armour"], team["quality"], False), rules),
                        "helped": odds.recover(odds.recovery_modifier(rules, team["armour"], team["quality"], True), rules),
                    },
                    "hth_bonus": self.armour[team["armour"]]["level"],
                    "matchups": self._matchups(scenario, s, team),
                })
            vehicles = [{
                "name": v["name"], "kind": v["kind"], "quality": v["quality"], "player": v.get("player") or "",
                "weapons": [self.weapons[w] for w in v["weapons"]],
            } for v in side["vehicles"]]
            figures = sum(len(t["figures"]) for t in teams)
            sides.append({
                **{"name": styles[s].name, "colour": styles[s].colour, "shape": styles[s].shape, "badge": styles[s].badge},
                "teams": teams,
                "vehicles": vehicles,
                "figures": figures,
                # seed 001: a side withdraws once it "has lost more than 50% of the starting number"
                "break_losses": int(figures * loss) + 1,
            })
        deck = prepared.deck
        by_id = {c["id"]: c for c in deck["cards"]}
        passes = [[by_id[i] for i in run] for run in deck["passes"]]
        return {
            "table": scenario.data["table"],
            "objectives": scenario.data["objectives"],
            "map": prepared.map,
            "forces": sides,
            "deck": {"cards": deck["cards"], "passes": passes, "size": len(deck["cards"])},
            "odds": {t.id: t for t in self.odds()},
            "weapons": list(self.weapons.values()),
            "rules": rules,
            "team_withdraw_at": rules["morale"]["team_withdraw_at"],
        }

    def map_svg(self, scenario):
        table = scenario.data["table"]
        m = TableMap(table["width"], table["depth"], tick=6 if max(table.values()) <= 96 else 12)
        order = {"river": 0, "road": 1, "hill": 0, "bridge": 3}
        for f in sorted(scenario.data["terrain"], key=lambda f: order.get(f["kind"], 2)):
            shape = next(k for k in SHAPE_KEYS if f.get(k) is not None)
            cover = f.get("cover") or self.terrain_kinds[f["kind"]]["cover"]
            label = f["name"] or ("" if f["kind"] in ("river", "road") else f["kind"].capitalize())
            if cover != "none" and label:
                label = f"{label} ({cover})"
            m.terrain(f["kind"], shape, f[shape], f.get("width") or 2, label)
        for s, style in enumerate(scenario.side_views):
            zone = scenario.sides[s].get("deployment")
            if zone:
                m.zone(zone, style.colour, style.pattern, style.shape, style.name, s)
        for obj in scenario.data["objectives"]:
            m.objective(obj["at"][0], obj["at"][1], obj["name"])
        return m.svg()

    def cards(self, prepared: FireteamPrepared, card_size: str) -> list[dict]:
        styles = prepared.sides
        out = []
        rules = self.rules
        for card in prepared.cards:
            style = styles[card["side_index"]] if card["side_index"] >= 0 else None
            out.append({
                **card,
                "kind": "ft " + card["type"].lower() + ("" if card["unit"] else " shared"),
                "colour": style.colour if style else "#333333",
                "shape": style.shape if style else "",
                "badge": style.badge if style else "",
                "text": self._card_text(card, rules),
            })
        return out

    def _card_text(self, card: dict, rules: dict) -> list[str]:
        if card["type"] == "Move":
            if card["vehicle"]:
                return ["Move 3D6 inches.", "Hovercraft and helicopters: up to the length of the table."]
            lines = ['Each figure: 2D6 inches, or 6" without rolling.', 'Linear obstacle \u22122"; rough ground costs double.']
            if card["jump_packs"]:
                lines.insert(1, 'Jump packs: up to 24"; a 2 on 2D6 is a HIT.')
            return lines
        if card["type"] == "Fire":
            if card["vehicle"]:
                return ["Each weapon fires: opposed 2D6.", "HIT if the firer's total is greater."]
            return ["Each figure may fire: opposed 2D6.", 'Firer +1 leader within 9"; +1 per quality step better.', "HIT if the firer's total is greater; 12 vs 2 always HITs."]
        if card["type"] == "HTH":
            return ["All hand-to-hand fights, every side.", "2D6 + armour level + 2 for pistol, rifle or blade.", "Margin 6+ kill or capture; 3\u20135 killed; 1\u20132 HIT; tie fight on."]
        return ["Every HIT figure, every side: 2D6.", "8 or more stands; less is removed.", "Then check morale: teams of two, sides past half."]


SYSTEM = FireteamTomorrow()
