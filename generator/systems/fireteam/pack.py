"""Fireteam Tomorrow's pack: rosters with each team's recovery and firing chances, the run-sheet, odds and weapons."""

from __future__ import annotations

import re

from ...distances import INCH, distance, inch_marks
from ...table import OnTable, side_words
from ...tables import share
from . import odds
from .models import Rules
from .roster import carried, figures, medic_roles


def pack_data(rules: Rules, prepared, tables: list, leaves_out: frozenset[str], written: Rules | None = None) -> dict:
    """Plain data for templates/fireteam-tomorrow/pack.html, read from what prepare() worked out; the weapon
    table holds only the weapons the forces carry (none of `leaves_out`). `written` is the rule data as written,
    for a pack played with house rules: the weapons table prints a changed value beside the one it replaces."""
    battle, deck = prepared.battle, prepared.deck
    weapons = {weapon.name: weapon for weapon in rules.weapons}
    forces = [_force(rules, weapons, view, side, prepared) for view, side in zip(prepared.sides, prepared.forces)]
    by_id = {card["id"]: card for card in deck["cards"]}
    vehicles = "Vehicles" not in leaves_out
    tables_by_id = {table.id: table for table in tables}
    if not vehicles:  # the movement odds' vehicle column only for a battle with vehicles
        tables_by_id["movement"] = odds.movement_table(rules, vehicles=False)
    return {
        "table": battle.table,
        "objectives": battle.objectives,
        "glance": glance(forces, vehicles),
        "map": prepared.map,
        "map_page": prepared.map_page,
        "forces": forces,
        "deck": {
            "cards": deck["cards"],
            "passes": [[by_id[i] for i in run] for run in deck["passes"]],
            "size": len(deck["cards"]),
        },
        "odds": tables_by_id,
        "vehicles": vehicles,
        "weapons": [weapon for weapon in rules.weapons if weapon.name not in leaves_out],
        "written": {weapon.name: weapon for weapon in written.weapons} if written is not None else {},
        "source": rules.source,
        "team_withdraw_at": rules.morale.team_withdraw_at,
        "hth_rule": _hth_rule(rules),
        "hth_dice": rules.hth.dice,
        "recovery_help": _recovery_help(rules),
        "hth_bonus": rules.hth.weapon_bonus,  # the weapons table's HTH bonus column: +2 or none, not "yes" or blank
        "left_out": _left_out(rules),
        "vehicle_rules": {
            "dice": rules.movement.vehicle_dice,
            "armour": f"{rules.vehicle_armour.name.lower()} +{rules.vehicle_fire_defence}",
            "hit": rules.vehicles.damage_hit,
            "leader": _vehicle_leader(rules),
        },
    }


# the modifiers a roster's firing table is laid out by: its rows (quality), columns (cover, the leader) and the
# vehicle rows; every other modifier of the rule data is named beside the table as one it leaves to the player
IN_THE_TABLE = {"attacker.leader", "attacker.quality", "defender.cover", "defender.quality", "defender.vehicle"}


def _left_out(rules: Rules) -> list[str]:
    """The firing modifiers a roster's table cannot know (suppressive fire), in the rule data's words."""
    out = []
    for side, who, modifiers in (
        ("attacker", "firer", rules.fire.attacker),
        ("defender", "target", rules.fire.defender),
    ):
        for m in modifiers:
            if f"{side}.{m.id}" in IN_THE_TABLE:
                continue
            most = f", at most {m.most:+d}" if m.most is not None else ""
            out.append(f"{m.name[0].lower()}{m.name[1:]}, {m.value:+d} to the {who}{most}")
    return out


def _hth_rule(rules: Rules) -> str:
    """What a figure's HTH number is made of, in the rule data's words: armour level plus the weapon bonus."""
    levels = ", ".join(f"{armour.name} {armour.level}" for armour in rules.armour)
    return f"armour level ({levels}), {rules.hth.weapon_bonus_rule}"


def _force(rules: Rules, weapons: dict, view, side, prepared) -> dict:
    """One side's roster: its view (name, colour, shape, badge, briefing), teams, vehicles and withdrawal point."""
    armour = {level.name: level.level for level in rules.armour}
    teams = [
        {
            "name": team.name,
            "player": team.player or "",
            "quality": team.quality,
            "armour": team.armour,
            "jump_packs": team.jump_packs,
            "group": team.group,
            "figures": _figure_rows(rules, team, weapons, armour[team.armour]),
            "recovery": _recovery(rules, team.armour, team.quality),
            # a figure of another quality recovers by its own chance (seed 001: +1 if Good or Elite, +3 if Hero);
            # one whose chance is the team's (an Elite in a Good team) is not named again with the same numbers
            "recovery_others": _recovery_others(rules, team),
            "matchups": _matchups(
                rules,
                view.index,
                _quality_groups(team, rules),
                [weapons[name] for name in carried([team], rules)],
                prepared,
            ),
        }
        for team in side.teams
    ]
    vehicles = [
        {
            "name": v.name,
            "kind": v.kind,
            "quality": v.quality,
            "player": v.player or "",
            "weapons": [weapons[w] for w in v.weapons],
            "damage": _damage_rows(rules, [weapons[w] for w in v.weapons]),
            # a vehicle has its own Fire cards (seed 001) and fires by its crew's quality like any figure
            "matchups": _matchups(rules, view.index, [(v.quality, "")], [weapons[w] for w in v.weapons], prepared),
        }
        for v in side.vehicles
    ]
    count = sum(len(team["figures"]) for team in teams)
    return {
        "side": view,
        "teams": teams,
        "vehicles": vehicles,
        "figures": count,
        "deployment": side_words(OnTable.of(side, "teams", "vehicles"), prepared.battle.table, INCH, turn_word="pass"),
        # seed 001: a side withdraws once it "has lost more than 50% of the starting number"
        "break_losses": int(count * rules.morale.side_loss) + 1,
        "break_share": share(rules.morale.side_loss),
    }


def _vehicle_leader(rules: Rules) -> str:
    """The leader's bonus as a vehicle's firing table reads it: the rule names a leader, not a crew, so a friendly
    leader near the vehicle is this pack's reading, said where the player reads the table."""
    leader = next((m for m in rules.fire.attacker if m.id == "leader"), None)
    if leader is None:
        return ""
    near = inch_marks(f"{leader.name[0].lower()}{leader.name[1:]}")
    return f"a leader’s {leader.value:+d} (this pack’s reading: a friendly {near} of the vehicle)"


def _damage_rows(rules: Rules, weapons: list) -> list[dict]:
    """A vehicle's damage record from the rule data's rows: one row for each weapon it carries (its level and
    range beside it), then movement and crew, each with its boxes and what a full row takes away."""
    rows = []
    for track in rules.vehicles.damage:
        if track.name == "weapon":
            rows += [{"name": w.name, "weapon": w, "boxes": track.boxes, "lost": track.lost} for w in weapons]
        else:
            rows.append({"name": track.name.capitalize(), "weapon": None, "boxes": track.boxes, "lost": track.lost})
    return rows


def _recovery_others(rules: Rules, team) -> list[dict]:
    """The team's figures of another quality whose chance to recover differs from the team's, each group with its
    own chances (worked out once a quality)."""
    own = _recovery(rules, team.armour, team.quality)
    medical = medic_roles(rules)
    out = []
    for quality, names in _quality_groups(team, rules):
        chances = _recovery(rules, team.armour, quality) if names else own
        if chances != own:
            # a medic alone in its quality is helped by the others only ('Mags (Elite) ... with the same help' counted
            # Mags's own bonus, a fresh read found)
            group = [f for f in figures(team, rules) if f.quality == quality]
            medic = all(f.role in medical for f in group)
            out.append({"figures": names, "quality": quality, "help": _recovery_help(rules, medic), **chances})
    return out


def glance(forces: list[dict], vehicles: bool) -> dict:
    """The cover's strength of each side: teams, vehicles (where any side has one), figures, the sum of its
    figures' weapon levels (how many targets it can fire at on its Fire cards) and its withdrawal point."""
    columns = ["Teams", *(["Vehicles"] if vehicles else []), "Figures", "Weapon levels", "Withdraws after losing"]
    rows = []
    for force in forces:
        levels = sum(figure["level"] for team in force["teams"] for figure in team["figures"])
        cells = [len(force["teams"]), *([len(force["vehicles"])] if vehicles else [])]
        cells += [force["figures"], levels, f"{force['break_losses']} figures"]
        rows.append({"side": force["side"], "cells": cells})
    return {"columns": columns, "rows": rows}


def _range(weapon) -> str:
    if weapon.range == "LOT":
        return "LOT"
    return distance(weapon.range) if weapon.range else "contact"


def _figure_rows(rules: Rules, team, weapons: dict, armour_level: int) -> list[dict]:
    rows = []
    for n, figure in enumerate(figures(team, rules), 1):
        weapon = weapons[figure.weapon]
        tags = (("MG", weapon.mg), (f"blast {distance(weapon.blast)}", weapon.explosive))
        # seed 001: a fighter adds its armour level, and the weapon bonus (rule data hth.weapon_bonus): one number per figure,
        # so the roster never shows the armour's share and the weapon's share as two different "HTH +" figures
        hth = armour_level + (rules.hth.weapon_bonus if weapon.hth_bonus else 0)
        rows.append(
            {
                "n": n,
                "name": figure.name or "",
                "role": figure.role,
                "quality": figure.quality,
                "quality_differs": figure.quality != team.quality,
                "weapon": weapon.name,
                "level": weapon.level,
                "range": _range(weapon),
                "hth": hth,
                "tags": ", ".join(tag for tag, on in tags if on),
            }
        )
    return rows


def _recovery_help(rules: Rules, medic: bool = False) -> str:
    """Who helps a HIT figure recover, and from how near, in the rule data's words without their asides: 'leader
    within 6", group member within 3" or medic within 3"' (the rosters said 'leader, member or medic near', the
    distances left to the Recovery card). For a `medic`, the help of others: a medic's bonus is not its own."""
    bonuses = [bonus for bonus in rules.recovery.one_of if not (medic and bonus.id == "medic")]
    names = [re.sub(r"\s*\([^()]*\)$", "", bonus.name) for bonus in bonuses]
    names = [name[:1].lower() + name[1:] for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _recovery(rules: Rules, armour: str, quality: str) -> dict:
    """A figure's chance to recover on its own and with a leader, member or medic near."""
    return {
        "base": odds.recover(odds.recovery_modifier(rules, armour, quality, False), rules),
        "helped": odds.recover(odds.recovery_modifier(rules, armour, quality, True), rules),
    }


def _quality_groups(team, rules: Rules) -> list[tuple[str, str]]:
    """A team's figures by quality, the team's own first: [(quality, "" for the team or the figures' names)].
    Seed 001: "sometimes the leader or another member may be a better quality soldier or even a hero", and each
    quality step is a modifier on every shot, so such a figure fires and is fired at by its own chances."""
    groups: dict[str, list[str]] = {team.quality: []}
    for n, figure in enumerate(figures(team, rules), 1):
        if figure.quality != team.quality:
            groups.setdefault(figure.quality, []).append(figure.name or f"{figure.role.capitalize()} #{n}")
    return [(quality, " and ".join(names)) for quality, names in groups.items()]


def _matchups(rules: Rules, side: int, groups: list[tuple[str, str]], carried: list, prepared) -> list[dict]:
    """Firers (a team, or a vehicle's crew) shooting at each enemy team, in each cover level, without and with a
    leader's +1: a block of rows for each quality among the firers (a team's own first, then each figure of another
    quality: Cpl Orr, Elite), and within each a row for every enemy team, its figures of another quality and its
    vehicles."""
    step = rules.qualities.index

    def cells(base: int) -> list[dict]:
        return [
            {
                "cover": cover.name,
                "plain": odds.fire_hit(base - cover.defence, rules),
                "leader": odds.fire_hit(base - cover.defence + 1, rules),
            }
            for cover in rules.cover
        ]

    harms_vehicles = any(weapon.mg or weapon.explosive for weapon in carried)
    blocks = []
    for quality, firers in groups:
        rows = []
        for view, enemy_side in zip(prepared.sides, prepared.forces):
            if view.index == side:
                continue
            for enemy in enemy_side.teams:
                for enemy_quality, targets in _quality_groups(enemy, rules):
                    rows.append(
                        {
                            "enemy": f"{enemy.name}: {targets}" if targets else enemy.name,
                            "side": view.name,
                            "quality": enemy_quality,
                            "cells": cells(step(quality) - step(enemy_quality)),
                            "harmless": False,
                        }
                    )
            for vehicle in enemy_side.vehicles:
                # seed 001: only MGs and explosives affect vehicles, and their armour is heavy +2
                base = step(quality) - step(vehicle.quality) - rules.vehicle_fire_defence
                rows.append(
                    {
                        "enemy": vehicle.name + " (MG or explosive only)",
                        "side": view.name,
                        "quality": vehicle.quality,
                        "cells": cells(base),
                        # a team with neither cannot harm it at all: no chance is printed, but why
                        "harmless": not harms_vehicles,
                    }
                )
        blocks.append({"firers": firers, "quality": quality, "rows": rows})
    return blocks
