"""The forces figure by figure: each team's figures with defaults filled in, and each unit's short code for its cards."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .models import Rules


def medic_roles(rules: Rules) -> frozenset[str]:
    """The roles that count as a team's medic, as the rule data marks them (`medic: true`): seed 001's "one might
    be a medic", and a fixer, "an elite combination medic/armorer/mechanic"."""
    return frozenset(role.name for role in rules.roles if role.medic)


def figures(team, rules: Rules) -> list:
    """A team's figures one by one (a line with a count becomes that many), with medics' default pistols filled in."""
    roles = {role.name: role for role in rules.roles}
    out = []
    for figure in team.figures:
        weapon = figure.weapon or roles[figure.role].default_weapon or None
        out += [replace(figure, weapon=weapon, quality=figure.quality or team.quality, count=1)] * figure.count
    return out


def carried(teams, rules: Rules) -> set[str]:
    """The names of the weapons the teams' figures carry, a role's default weapon where a figure names none."""
    return {figure.weapon for team in teams for figure in figures(team, rules) if figure.weapon}


@dataclass(frozen=True)
class Unit:
    """A team or a vehicle with the code its cards carry: S1T2 is side 1's second team, S2V1 side 2's first vehicle."""

    code: str
    side: int
    name: str
    vehicle: bool
    record: object  # the scenario's Team or Vehicle
    path: str = ""  # the scenario key of its name, sides[0].teams[1].name, for problems found while printing

    @property
    def jump_packs(self) -> bool:
        return not self.vehicle and self.record.jump_packs


def units(forces: list) -> list[Unit]:
    """Every team and vehicle of every side, in the scenario's order."""
    out = []
    for s, side in enumerate(forces):
        out += [
            Unit(f"S{s + 1}T{t + 1}", s, team.name, False, team, f"sides[{s}].teams[{t}].name")
            for t, team in enumerate(side.teams)
        ]
        out += [
            Unit(f"S{s + 1}V{v + 1}", s, vehicle.name, True, vehicle, f"sides[{s}].vehicles[{v}].name")
            for v, vehicle in enumerate(side.vehicles)
        ]
    return out


def in_play(rules: Rules, forces: list) -> dict[str, bool]:
    """What the quick reference prints only for a force that fields it, by its name or key in the rule data:
    every weapon (carried by a figure or mounted on a vehicle), the vehicle rules (the section and the notes
    named Vehicles and Vehicle armour), hovercraft and helicopters (section and entry), the `Jump packs` section, fixers,
    groups of less capable fighters and heroes."""
    teams = [team for side in forces for team in side.teams]
    vehicles = [vehicle for side in forces for vehicle in side.vehicles]
    fielded = carried(teams, rules) | {weapon for vehicle in vehicles for weapon in vehicle.weapons}
    roles = {figure.role for team in teams for figure in team.figures}
    fliers = {"hovercraft", "helicopter"}
    out = {weapon.name: weapon.name in fielded for weapon in rules.weapons}
    out.update(
        {
            "Vehicles": bool(vehicles),
            "Vehicle armour": bool(vehicles),
            "Hovercraft and helicopters": any(vehicle.kind in fliers for vehicle in vehicles),
            "Jump packs": any(team.jump_packs for team in teams),
            "fixer": "fixer" in roles,
            rules.limits.large_group.name: any(team.group for team in teams),
            "Hero": any(figure.quality == "Hero" for team in teams for figure in figures(team, rules)),
        }
    )
    return out
