"""Fireteam Tomorrow's validation beyond shape: team sizes, leaders, special weapons, players and figures, the table's edges."""

from __future__ import annotations

from ... import table as tabletop
from ...schema import Checker
from .models import Rules
from .roster import figures, medic_roles


def check(rules: Rules, battle, forces: list, names_of_sides: list[str], checker: Checker) -> list[tuple[tuple, str]]:
    """Report every problem of a shape-clean scenario to checker; return its warnings as (path, text)."""
    limits = rules.limits
    table = battle.table
    warnings = []
    total = teams = vehicles = 0
    players: dict[str, str] = {}
    names: dict[str, tuple] = {}
    for s, side in enumerate(forces):
        for t, team in enumerate(side.teams):
            path = ("sides", s, "teams", t)
            teams += 1
            _check_team(rules, team, path, checker)
            total += sum(figure.count for figure in team.figures)
            if team.name in names:
                checker.report(path + ("name",), f"two teams are named {team.name!r}; their cards must differ")
            names[team.name] = path
            if team.player:
                if team.player in players:
                    checker.report(
                        path + ("player",),
                        f"{team.player!r} already plays {players[team.player]!r}; each player controls one team",
                    )
                players.setdefault(team.player, team.name)
        for v, vehicle in enumerate(side.vehicles):
            vehicles += 1
            path = ("sides", s, "vehicles", v)
            if vehicle.name in names:
                checker.report(path + ("name",), f"{vehicle.name!r} is already the name of a team or vehicle")
            names[vehicle.name] = path
    if teams > limits.players_max:
        checker.report(
            ("sides",), f"at most {limits.players_max} players, and each player controls one team (found {teams} teams)"
        )
    if total > limits.figures_max:
        checker.report(("sides",), f"at most {limits.figures_max} figures in a game (found {total})")
    if vehicles > limits.vehicles_warn_above:
        warnings.append(
            (("sides",), f"{vehicles} vehicles: the rules advise very rarely more than {limits.vehicles_warn_above}")
        )
    on_table = [tabletop.OnTable.of(side, "teams", "vehicles") for side in forces]
    tabletop.check(
        table, battle.terrain, battle.objectives, on_table, names_of_sides, checker, '"', battle.passes, "pass"
    )
    return warnings


def _check_team(rules: Rules, team, path: tuple, checker: Checker) -> None:
    limits = rules.limits
    weapons = {weapon.name: weapon for weapon in rules.weapons}
    roles = {role.name: role for role in rules.roles}
    members = figures(team, rules)
    count = len(members)
    large = limits.large_group.qualities
    if count < limits.team_min:
        checker.report(path, f"a fireteam has {limits.team_min} to {limits.team_max} figures, found {count}")
    elif count > limits.team_max and not (team.group and team.quality in large):
        hint = (
            f"; only a group (group: true) of {' or '.join(large)} fighters may be larger"
            if not team.group
            else f"; a group larger than six must be {' or '.join(large)}"
        )
        checker.report(path, f"a fireteam has {limits.team_min} to {limits.team_max} figures, found {count}{hint}")
    leaders = sum(1 for figure in members if figure.role == "leader")
    if leaders != limits.leaders_per_team:
        checker.report(path + ("figures",), f"a team has one leader, found {leaders}")
    specials = [f.weapon for f in members if f.weapon and weapons[f.weapon].kind in ("special", "heavy")]
    if len(specials) > limits.special_or_heavy_per_team:
        checker.report(
            path + ("figures",),
            f"at most one special or heavy weapon a team, found {len(specials)} ({', '.join(specials)})",
        )
    # the seed's "one might be a medic" counts every figure whose role the rule data marks `medic: true`
    medical = medic_roles(rules)
    medics = sum(1 for figure in members if figure.role in medical)
    if medics > limits.medics_per_team:
        checker.report(path + ("figures",), f"at most one medic (or fixer) a team, found {medics}")
    for i, figure in enumerate(team.figures):
        weapon = figure.weapon or roles[figure.role].default_weapon
        if not weapon:
            checker.report(path + ("figures", i), "missing key 'weapon' (the figure's weapon)")
        elif weapons[weapon].kind == "vehicle":
            checker.report(path + ("figures", i, "weapon"), f"{figure.weapon!r} is a vehicle weapon")
    if members and all(figure.quality == "Hero" for figure in members):
        checker.report(path + ("quality",), "heroes are very rare, and no entire team is made up of them")
