"""Card fronts for templates/para-bellum/cards.html: one card per unit (an HQ's Command Points on it), and action cards."""

from __future__ import annotations

import markupsafe

from .models import Rules
from .roster import ForcesPrepared

# cards.css: a mini card is too narrow for the stress levels across, so its track lists a level a row
TRACK_DOWN = frozenset({"mini"})
# a mini card has no room for what every unit shares: the limits on combining actions, and the list of
# actions when every one is open to the unit (it says so); the action cards and the reference print them
BRIEF = frozenset({"mini"})
# a tarot card has room to spare: its unit body starts large and is fitted to the card (generator/fit.py), every
# unit card of the deck at one size, so that they do not stand small and a third blank beside the action cards
FILLED = frozenset({"tarot"})


def command_track(rules: Rules, unit: dict) -> dict:
    """An HQ's Command Points as boxes to strike off, as many a Take Action! order as it costs."""
    order = rules.order
    each = "one" if order.cost == 1 else str(order.cost)
    return {"boxes": list(range(1, unit["command_points"] + 1)), "rule": f"strike off {each} per order"}


def unit_cards(rules: Rules, prepared: ForcesPrepared, card_size: str) -> list[dict]:
    """Exactly one card for each unit: stats, weapons, stress track, the actions open to it, and an HQ's Command Points."""
    track = "down" if card_size in TRACK_DOWN else "across"
    return [
        {
            "kind": "pb-unit" + (" pb-hq" if unit["hq"] else ""),
            "side": force.side,
            "unit": unit,
            "track": track,
            "filled": card_size in FILLED,
            "command": command_track(rules, unit) if unit["hq"] else None,
            "kinds": [] if card_size in BRIEF and unit["actions"]["all_open"] else unit["actions"]["kinds"],
            "rules": ([] if card_size in BRIEF else unit["actions"]["general"]) + [unit["actions"]["unit"]],
            # the scenario keys the band's names come from: a name too long for the card is refused there
            "side_path": f"sides[{force.side.index}].name",
            "name_path": f"sides[{force.side.index}].units[{number}].name",
            # its body (weapons, track, rules) too full for the card even at 7 pt: refused at the unit
            "unit_path": f"sides[{force.side.index}].units[{number}]",
            # (escaped here: a message's quotes stay as typed, not curled as printed text is)
            "unit_what": markupsafe.escape(f"the card of {unit['name']!r}"),
        }
        for force in prepared.forces
        for number, unit in enumerate(force.units)
    ]


def action_cards(rules: Rules) -> list[dict]:
    """One card for each action; Fire! shows both its Short and Long forms."""
    grouped: dict[str, list] = {}
    for action in rules.actions:
        grouped.setdefault(action.action, []).append(action)
    rule = rules.fire_and_charge
    cards = []
    for forms in grouped.values():
        # an aiming action's rule already says when its bonus is lost (rule data: `rule`), so the card says it once
        extra = []
        if forms[0].action in (rule.fire, rule.charge):
            extra.append(rule.rule)
        if any(form.alone for form in forms):
            extra.append("Never combined with another action (this pack's reading).")
        cards.append(
            {
                "kind": "pb-action",
                "name": forms[0].name,
                "forms": [
                    {"label": rules.kinds[form.kind].label, "cost": rules.cost(form), "rule": form.rule}
                    for form in forms
                ],
                "extra": extra,
            }
        )
    return cards


def cards(rules: Rules, prepared: ForcesPrepared, card_size: str) -> list[dict]:
    """Every card front of the build at this card size: the units' cards, then the action cards."""
    return unit_cards(rules, prepared, card_size) + action_cards(rules)


def counters(rules: Rules, prepared) -> list:
    """The counters a Para Bellum game puts on the table, in each side's colour: two Stress tokens for each unit,
    1 on one face and 2 on the other (the rule data's name for it: a unit with more takes another); and an order
    marker for each Command Point the side's HQs hold, to set beside a unit ordered to Take Action! (its name and
    bonus from the rule data)."""
    from ...counters import Counter, Face

    out = []
    for force in prepared.forces:
        side = force.side
        one = Face.of(side, "1", rules.stress.name)
        two = Face.of(side, "2", rules.stress.name)
        out += [Counter(one, two)] * (2 * len(force.units))
        order = Face.of(side, rules.order.name, f"+{rules.order.bonus} action point")
        out += [Counter(order)] * force.command_points
    return out
