"""Fireteam Tomorrow's pack: rosters with each team's recovery and firing chances, the run-sheet, odds and weapons."""

from __future__ import annotations

from ...distances import distance
from . import odds
from .models import Rules
from .roster import figures


def pack_data(rules: Rules, prepared, tables: list, leaves_out: frozenset[str]) -> dict:
    """Plain data for templates/fireteam-tomorrow/pack.html, read from what prepare() worked out; the weapon
    table holds only the weapons the forces carry (none of `leaves_out`)."""
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
        "source": rules.source,
        "team_withdraw_at": rules.morale.team_withdraw_at,
        "hth_rule": _hth_rule(rules),
    }


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
            "recovery": {
                "base": odds.recover(odds.recovery_modifier(rules, team.armour, team.quality, False), rules),
                "helped": odds.recover(odds.recovery_modifier(rules, team.armour, team.quality, True), rules),
            },
            "matchups": _matchups(rules, view.index, team, prepared),
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
        }
        for v in side.vehicles
    ]
    count = sum(len(team["figures"]) for team in teams)
    return {
        "side": view,
        "teams": teams,
        "vehicles": vehicles,
        "figures": count,
        # seed 001: a side withdraws once it "has lost more than 50% of the starting number"
        "break_losses": int(count * rules.morale.side_loss) + 1,
    }


def _range(weapon) -> str:
    if weapon.range == "LOT":
        return "LOT"
    return distance(weapon.range) if weapon.range else "contact"


def _figure_rows(rules: Rules, team, weapons: dict, armour_level: int) -> list[dict]:
    rows = []
    for n, figure in enumerate(figures(team, rules), 1):
        weapon = weapons[figure.weapon]
        tags = (("MG", weapon.mg), (f"blast {distance(weapon.blast)}", weapon.explosive))
        # seed 001: a fighter adds its armour level, and +2 for a pistol, rifle or HTH weapon: one number per figure,
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


def _matchups(rules: Rules, side: int, team, prepared) -> list[dict]:
    """This team firing at each enemy team, in each cover level, without and with its leader's +1."""
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

    weapons = {weapon.name: weapon for weapon in rules.weapons}
    carried = [weapons[figure.weapon] for figure in figures(team, rules) if figure.weapon]
    harms_vehicles = any(weapon.mg or weapon.explosive for weapon in carried)
    rows = []
    for view, enemy_side in zip(prepared.sides, prepared.forces):
        if view.index == side:
            continue
        for enemy in enemy_side.teams:
            rows.append(
                {
                    "enemy": enemy.name,
                    "side": view.name,
                    "quality": enemy.quality,
                    "cells": cells(step(team.quality) - step(enemy.quality)),
                    "harmless": False,
                }
            )
        for vehicle in enemy_side.vehicles:
            # seed 001: only MGs and explosives affect vehicles, and their armour is heavy +2
            base = step(team.quality) - step(vehicle.quality) - rules.vehicle_armour.fire_defence
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
    return rows
