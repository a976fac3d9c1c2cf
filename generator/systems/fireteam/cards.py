"""Fireteam Tomorrow's card fronts: each deck card with its side's view and its rules in short, for players."""

from __future__ import annotations

import re

from ...dice import nd
from ...rendering import NBSP, pct
from ...tables import share
from .models import Rules
from .odds import roll_beats_fixed
from .roster import Unit, carried, figures

# a mini card has no room for the Recovery card's morale beside its modifiers: it points to the rosters, which
# print each side's and team's morale in full
BRIEF = frozenset({"mini"})
# a poker or tarot card's Move card holds its rules in half its body: it adds how often a roll reaches each
# distance (a mini card has no room for it)
ROOMY = frozenset({"poker", "tarot"})


def fronts(cards: list[dict], sides: list, units: list[Unit], rules: Rules, card_size: str = "poker") -> list[dict]:
    """One front per deck card; a unit's card carries its side's view (colour, shape, badge), a shared card none.

    `side_path` and `unit_path` name the scenario keys the band's names come from, so that a name too long for
    the card is reported at its line and column (generator/fit.py).
    """
    by_code = {unit.code: unit for unit in units}
    teams = [unit.record for unit in units if not unit.vehicle]
    weapons = carried(teams, rules)
    # a card's side faces vehicles when another side fields one: only then does its Fire card name their armour
    facing = {side: any(u.vehicle and u.side != side for u in units) for side in {u.side for u in units}}
    # the recovery modifiers that can apply: the armour and qualities the battle's figures have
    fielded = {team.armour for team in teams} | {figure.quality for team in teams for figure in figures(team, rules)}
    out = []
    for card in cards:
        unit = by_code.get(card["unit_code"])
        out.append(
            {
                **card,
                "kind": "ft " + card["type"].lower() + ("" if card["unit"] else " shared"),
                "view": sides[card["side_index"]] if card["side_index"] >= 0 else None,
                "text": card_text(
                    card,
                    rules,
                    weapons,
                    unit.record.kind if unit and unit.vehicle else "",
                    vehicles=facing.get(card["side_index"], False),
                    fielded=fielded,
                    brief=card_size in BRIEF,
                    roomy=card_size in ROOMY,
                ),
                "side_path": f"sides[{card['side_index']}].name" if unit else "",
                "unit_path": unit.path if unit else "",
            }
        )
    return out


def card_text(
    card: dict,
    rules: Rules,
    carried: set[str],
    vehicle_kind: str = "",
    vehicles: bool = False,
    fielded: frozenset[str] | set[str] | None = None,
    brief: bool = False,
    roomy: bool = False,
) -> list[str]:
    """The card's rules in short, only those that apply to the card's unit, abbreviations spelt out.

    The Fire card's dice and both sides' modifiers, the HTH card's dice and weapon bonus (naming the weapons the
    scenario's figures carry that earn it) and the Recovery card's dice, target and modifiers are read from the
    rule data (`vehicles`: the card's side faces an enemy vehicle, so its armour and what harms it are named; `fielded`: the armour
    levels and qualities of its figures, so the Recovery card names only the modifiers that can apply, all of them
    when None; `brief`: a mini card, whose Recovery card points to the rosters for morale and whose HTH card leaves out the line
    saying whose fights it settles; `roomy`: a poker or tarot card, whose Move cards, a vehicle's too, also give the chance of a roll
    reaching each distance). The Move card's dice and distances, and its chance of a roll beating the fixed move, are the rule
    data's too.
    """
    if card["type"] == "Move":
        movement = rules.movement
        obstacles = f'Linear obstacle \u2212{movement.linear_obstacle}"; rough ground costs {movement.rough}.'
        if card["vehicle"]:
            reach = [_reach(nd(movement.vehicle_dice))] if roomy else []
            if vehicle_kind in ("hovercraft", "helicopter"):
                return [
                    f"Move {movement.vehicle_dice}D6 inches, or up to the length of the table.",
                    *reach,
                    "A hovercraft weaves through woods and narrow streets more slowly."
                    if vehicle_kind == "hovercraft"
                    else "A helicopter flies over woods, buildings and rivers.",
                ]
            return [f"Move {movement.vehicle_dice}D6 inches.", *reach, obstacles]
        rolled = nd(movement.dice)
        beats = roll_beats_fixed(rules)
        lines = [
            f'Each figure: {movement.dice}D6 inches, or {movement.fixed}" without rolling.',
            # what a player weighs before choosing: the odds page's movement note, on the card they hold
            f'Rolling goes farther than {movement.fixed}" in {pct(beats)} of rolls, {float(rolled.mean()):g}" on average.',
            *([_reach(rolled, beyond=movement.fixed)] if roomy else []),
            obstacles,
        ]
        if card["jump_packs"]:
            jump = movement.jump
            lines.insert(  # before the obstacles, after the roll's odds
                len(lines) - 1,
                f'Jump packs: up to {jump.max}" instead, starting and landing at least {jump.clearance}" from any '
                f"figure; then roll {jump.dice}D6, and on a {jump.mishap_natural} the figure is HIT.",
            )
        return lines
    if card["type"] == "Fire":
        fire = rules.fire
        hits = fire.always_hits
        armour = [_modifier(m, rules) for m in fire.defender if m.vehicles_only]
        return [
            *(["Each weapon fires, at its crew's quality."] if card["vehicle"] else []),
            # '(12 against 2 always HITs)' read as two totals compared, the very thing the modifiers cannot overturn;
            # a mini card says who rolls in fewer words to make room
            f"{'Each rolls' if brief else 'Firer and target each roll'} {fire.dice}D6: HIT if the firer's total is "
            f"greater; a {hits.attacker_natural} rolled against a {hits.defender_natural} always HITs.",
            "Firer: " + "; ".join(_modifier(m, rules) for m in fire.attacker) + ".",
            "Target: " + "; ".join(_modifier(m, rules) for m in fire.defender if not m.vehicles_only) + ".",
            # seed 001: "nothing but an MG or a weapon with an explosive device can have any effect" on a vehicle
            # 'A vehicle: +2 vehicle armour' left the reader to guess whose roll gains it
            *(
                [f"Against a vehicle: {'; '.join(armour)}; only an MG or explosive harms it."]
                if vehicles and armour
                else []
            ),
        ]
    if card["type"] == "HTH":
        return [
            # a mini card's band and kind already say it is every side's HTH card: its rules need the room
            *([] if brief else ["Hand-to-hand (HTH): every fight on the table, every side."]),
            # without that line the roll needs its subject ('Each rolls ...' opened the mini card)
            f"{'In every fight each' if brief else 'Each'} rolls {rules.hth.dice}D6 + armour level"
            f"{_weapon_bonus(rules, carried)}.",
            _hth_results(rules),
            rules.hth.hit_figure,
        ]
    recovery = rules.recovery
    return [
        f"Every HIT figure, every side, rolls {recovery.dice}D6: {recovery.target} or more, it recovers; less, it is "
        "removed.",
        _recovery_modifiers(rules, fielded),
        *(
            ["Then check morale: see the rosters."]
            if brief
            else [
                f"Morale: a team down to {rules.morale.team_withdraw_at} figures withdraws or joins another, unless "
                "its leader or hero lives.",
                f"A side that has lost over {share(rules.morale.side_loss)} of its figures withdraws, unless it "
                "outnumbers the enemy.",
            ]
        ),
    ]


def _hth_results(rules: Rules) -> str:
    """'Win by 6 or more: winner may kill or capture the loser; by 3-5: loser killed; ...': the result bands in the
    rule data's words, by the winner's margin (the card said 'by 3-5: killed', which read as the winner killed)."""
    parts = []
    # the widest margin first, as a reader looks for the best result
    for band in sorted(rules.hth.bands, key=lambda b: b.min, reverse=True):
        if band.min == 0 and band.max == 0:
            margin = "a tie"
        elif band.max is None:
            margin = f"by {band.min} or more"
        elif band.max == band.min:
            margin = f"by {band.min}"
        else:
            margin = f"by {band.min}\u2013{band.max}"
        parts.append(f"{margin}: {_lower(band.result)}")
    return "Win " + "; ".join(parts) + "."


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]


def _modifier(modifier, rules: Rules) -> str:
    """A fire modifier as a card prints it, from the rule data: '+1 leader within 9"', 'cover: light +1, medium +2,
    heavy +3' (the cover table's levels), '+1 each friendly within 12" ..., at most +3'; without the name's closing
    aside ('(suppressive fire)', '(heavy +2)'), which the quick reference and the roster print."""
    if modifier.times == "cover":
        levels = ", ".join(f"{c.name} +{c.defence * modifier.value}" for c in rules.cover if c.defence)
        return f"cover: {levels}"
    name = re.sub(r"\s*\([^()]*\)$", "", modifier.name)
    text = f"+{modifier.value} {_lower(name)}"
    if modifier.most is not None:
        text += f", at most {modifier.most:+d}"
    return text


def _recovery_modifiers(rules: Rules, fielded) -> str:
    """'+1 for one of: leader within 6", .... Also +1 medium armour, ...': the recovery roll's modifiers in the rule
    data's words, the bonuses of which only one counts first."""
    recovery = rules.recovery
    values = {bonus.value for bonus in recovery.one_of}
    if len(values) == 1:
        one = f"+{values.pop()} for one of: " + ", ".join(_lower(bonus.name) for bonus in recovery.one_of)
    else:
        one = "one of: " + ", ".join(f"+{bonus.value} {_lower(bonus.name)}" for bonus in recovery.one_of)
    every = ", ".join(
        f"+{m.value} {_lower(m.name)}"
        for m in recovery.all_of
        # one tied to no armour or quality applies to every figure
        if fielded is None or not (m.armour or m.qualities) or fielded & {*m.armour, *m.qualities}
    )
    # the bonuses that all count are a sentence of their own: after "one of: ...; " they read as more of the one
    return f"{one}. Also {every}." if every else f"{one}."


def _weapon_bonus(rules: Rules, carried: set[str]) -> str:
    """', +2 with a pistol or assault rifle only': the HTH weapon bonus in words, naming the weapons that earn it
    among those the scenario's figures carry, in the weapon table's order."""
    bonus = rules.hth.weapon_bonus
    if not bonus:
        return ""
    earn = [w.name.lower() for w in rules.weapons if w.name in carried and w.hth_bonus]
    if not earn:
        return f" (no weapon carried here earns the +{bonus})"
    either = earn[0] if len(earn) == 1 else ", ".join(earn[:-1]) + " or " + earn[-1]
    only = "" if all(w.hth_bonus for w in rules.weapons if w.name in carried) else " only"
    return f", +{bonus} with {'an' if either[0] in 'aeiou' else 'a'} {either}{only}"


def _reach(rolled, beyond: int = 0) -> str:
    """How often a movement roll reaches each even distance past `beyond` (a figure's fixed move, which it may take
    without rolling) that it may fall short of, exactly ('A roll reaches 8": 41.7%; ...'): what a player weighs
    before rolling for a charge or for cover. A distance and its chance are never parted at a line's end. The
    distance just past `beyond` is left out: the line before says how often a roll goes farther than it."""
    lowest, highest = min(rolled.p), max(rolled.p)
    first = beyond + 2 if beyond else lowest + 1
    steps = [d for d in range(max(lowest + 1, first), highest + 1) if d % 2 == 0]
    return "A roll reaches " + "; ".join(f'{d}":{NBSP}{pct(rolled.at_least(d))}' for d in steps) + "."


def counters(rules: Rules, forces: list, sides: list, objectives: list) -> list:
    """The counters a Fireteam game puts on the table: a HIT marker for each figure of each side, in its colour,
    that turns over to Out when the Recovery card removes the figure (the rule data's recovery target on its
    front); and a marker for each objective, its victory points under its name."""
    from ...counters import Counter, Face

    out = []
    for view, side in zip(sides, forces):
        count = sum(len(figures(team, rules)) for team in side.teams)
        hit = Face.of(view, "HIT", f"recovers on {rules.recovery.target}+")
        gone = Face.of(view, "OUT", "removed from play")
        out += [Counter(hit, gone)] * count
    for objective in objectives:
        points = (f"{objective.points} VP",) if objective.points is not None else ()
        out.append(Counter(Face("\u2605", (objective.name, *points))))
    return out
