"""Card fronts for templates/para-bellum/cards.html: unit cards with their follow-ons, command-point tracks, action cards."""

from __future__ import annotations

from . import cardfit, measure
from .models import Rules
from .roster import ForcesPrepared


def unit_cards(rules: Rules, prepared: ForcesPrepared, geometry: measure.Geometry) -> list[dict]:
    """Each unit's card and follow-on cards (its blocks and plans paginated at this size), then an HQ's command card."""
    out: list[dict] = []
    for force in prepared.forces:
        look = {"side": force.side, "fit": geometry}
        for unit in force.units:
            groups = [{"points": group["points"], "plans": group["plans"]} for group in unit["plans"] if group["plans"]]
            pages = cardfit.paginate(cardfit.unit_blocks(unit, geometry), groups, geometry)
            for i, page in enumerate(pages):
                kind = ("pb-unit" + (" pb-hq" if unit["hq"] else "")) if i == 0 else "pb-plans"
                out.append(
                    {
                        **look,
                        "kind": kind,
                        "unit": unit,
                        "items": page,
                        "part": i + 1,
                        "parts": len(pages),
                        "groups": [item for item in page if item["block"] == "plans"],
                    }
                )
            if unit["hq"]:
                out.append(
                    {
                        **look,
                        "kind": "pb-command",
                        "unit": unit,
                        "boxes": list(range(1, unit["command_points"] + 1)),
                        "order": rules.order.rule,
                        "cost": rules.order.cost,
                    }
                )
    return out


def action_cards(rules: Rules, geometry: measure.Geometry) -> list[dict]:
    """One card for each action; Fire! shows both its Short and Long forms."""
    grouped: dict[str, list] = {}
    for action in rules.actions:
        grouped.setdefault(action.action, []).append(action)
    rule = rules.fire_and_charge
    cards = []
    for forms in grouped.values():
        extra = []
        if any(form.bonus_for for form in forms):
            extra.append("Its bonus is lost unless Fire! follows in the same activation.")
        if forms[0].action in (rule.fire, rule.charge):
            extra.append(rule.rule)
        if any(form.alone for form in forms):
            extra.append("Never combined with another action.")
        cards.append(
            {
                "kind": "pb-action",
                "name": forms[0].name,
                "forms": [
                    {
                        "label": rules.kinds[form.kind].label,
                        "cost": rules.cost(form),
                        "abbr": form.abbr,
                        "rule": form.rule,
                    }
                    for form in forms
                ],
                "extra": extra,
                "fit": geometry,
            }
        )
    return cards


def cards(rules: Rules, prepared: ForcesPrepared, card_size: str) -> list[dict]:
    """Every card front of the build, laid out for this card size."""
    geometry = measure.for_size(card_size)
    return unit_cards(rules, prepared, geometry) + action_cards(rules, geometry)
