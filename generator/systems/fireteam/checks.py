"""Fireteam Tomorrow's validation beyond shape: team sizes, leaders, special weapons, players and figures, the table's edges."""

from __future__ import annotations

from ...schema import Checker
from .models import Rules
from .roster import figures, medic_roles

EDGE = 1e-9  # a piece exactly on the table's edge is on the table


def check(rules: Rules, battle, forces: list, checker: Checker) -> list[tuple[tuple, str]]:
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
        if side.deployment:
            _inside(side.deployment, table, ("sides", s, "deployment"), checker)
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
    for i, feature in enumerate(battle.terrain):
        _check_feature(feature, table, ("terrain", i), checker)
    for i, objective in enumerate(battle.objectives):
        x, y = objective.at
        if x > table.width or y > table.depth:
            checker.report(("objectives", i, "at"), f'off the {table.width}" x {table.depth}" table')
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


def _off_table(points, table) -> str:
    """How far the points reach past each edge of the table, '3" past the east edge', or "" where they stay on it
    (within EDGE)."""
    past = {}
    for x, y in points:
        for edge, over in (("west", -x), ("east", x - table.width), ("north", -y), ("south", y - table.depth)):
            if over > EDGE:
                past[edge] = max(past.get(edge, 0), over)
    return " and ".join(f'{over:g}" past the {edge} edge' for edge, over in past.items())


def _report_off(points, table, path: tuple, checker: Checker) -> None:
    past = _off_table(points, table)
    if past:
        checker.report(path, f'reaches {past} of the {table.width}" x {table.depth}" table')


def _inside(rectangle, table, path: tuple, checker: Checker) -> None:
    x, y, width, depth = rectangle
    _report_off([(x, y), (x + width, y + depth)], table, path, checker)


def _check_feature(feature, table, path: tuple, checker: Checker) -> None:
    if feature.rect:
        _inside(feature.rect, table, path + ("rect",), checker)
    corners = []
    if feature.circle:
        x, y, radius = feature.circle
        corners = [(x - radius, y - radius), (x + radius, y + radius)]
    for shape in ("polygon", "line"):
        if getattr(feature, shape):
            corners = getattr(feature, shape)
    _report_off(corners, table, path, checker)
