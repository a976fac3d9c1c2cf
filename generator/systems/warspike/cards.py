"""WarSpike's card fronts: a card per Unit, one set of Action and Reaction cards, and the two role markers."""

from __future__ import annotations

from .models import Rules


def unit_card(force: dict, row: dict, options: str, hold: str) -> dict:
    """One Unit's card: its side, stats, worked Move, Blocks, leader and orders (`hold`: the hold orders' name, printed
    where the Unit holds)."""
    return {
        "kind": "unit",
        "side": force["side"],
        "name": row["name"],
        "name_path": row["name_path"],
        "side_path": f"sides[{force['side'].index}].name",
        "leader_path": row["leader_path"],
        "stats": [
            {"label": "Troops", "value": str(row["troops"])},
            {"label": "Stature", "value": row["stature"]},
            {"label": "Move rate", "value": row["move_rate"]},
            {"label": "Mentality", "value": row["mentality"] or "\u2013"},
        ],
        "move": row["move"],
        "move_sum": f"{row['stature']} \u00d7 {row['move_rate']}",
        "leader": row["leader"],
        "blocks": " \u203a ".join(reversed(row["blocks"])),
        "block_moves": [] if row["hold"] else row["block_moves"],
        "hold": hold if row["hold"] else "",
        "options": options,
    }


def held_options(rules: Rules) -> str:
    """What a Unit under hold orders may react with, in the Reactions' order: the rule data's reading."""
    return " \u00b7 ".join(r.name for r in rules.reactions if r.name in rules.hold.reactions)


def cards(forces: list[dict], rules: Rules, usable: frozenset[str], free: bool) -> list[dict]:
    """A card per Unit, then one set of Action and Reaction cards and the two role markers (the roles change hands).
    A Reaction card prints only where a Unit that can ever be Retaliator may make it (a holding Unit reacts with
    the hold orders' Reactions alone), and the Retaliator marker's lines on countering a Move and on the Changeover
    print only where such a Unit may do so: `usable` and `free` are what reacting() says of them."""
    options = " \u00b7 ".join(
        action.name for action in rules.actions
    )  # the Reactions have the same names (models.Rules)
    held = held_options(rules)
    out = [
        unit_card(force, row, held if row["hold"] else options, rules.hold.name)
        for force in forces
        for row in force["rows"]
        if row["kind"] == "unit"
    ]
    text = rules.cards
    counter = rules.movement_counter
    for role, choices, rule, block_line in (
        ("action", rules.actions, text.action_rule, rules.blocks.same_option),
        (
            "reaction",
            [r for r in rules.reactions if r.name in usable],
            text.reaction_rule,
            rules.blocks.retaliator_block,
        ),
    ):
        for choice in choices:
            out.append(
                {
                    "kind": f"option {role}",
                    "role": role.capitalize(),
                    "name": choice.name,
                    "text": choice.text,
                    "rule": counter.card if role == "reaction" and choice.name == counter.reaction else rule,
                    "block": block_line,
                }
            )
    able = [force["side"].name for force in forces if force["can_instigate"]]
    # a Unit under hold orders only reacts: where an Instigator has one, "repeat until every one of your Units has
    # acted" needs the exception beside it
    holding = any(row.get("hold") for force in forces if force["can_instigate"] for row in force["rows"])
    for role, lines in (("instigator", text.instigator), ("retaliator", text.retaliator)):
        stays = _stays_with(role, able, forces)
        if role == "instigator" and holding:
            lines = [*lines, f"A Unit under {rules.hold.name.lower()} only reacts: it never takes an Action."]
        if role == "retaliator":
            # how a Move that targets no one is countered (by any Unit, not only the target) and the Changeover, where
            # a Unit that can be Retaliator may make them; who takes the Advantage where the markers change hands
            # (the line saying who keeps them takes its place)
            lines = [
                *lines,
                *([text.changeover] if free else []),
                *([counter.rule] if counter.reaction in usable else []),
                *([] if stays else [text.advantage]),
            ]
        out.append(
            {
                "kind": f"marker {role}",
                "role": role.capitalize(),
                "lines": [*lines, stays] if stays else lines,
                "foot": "Role marker" if stays else "Role marker: changes hands",
            }
        )
    return out


def reacting(forces: list[dict], rules: Rules) -> tuple[set[str], bool]:
    """What the Units of the sides that can ever be Retaliator (a side another side can instigate against) may do:
    the Reactions any of them may make (a holding Unit, the hold orders' alone), and whether any of them is free,
    not under hold orders, and so may make a Changeover move."""
    units = [
        row
        for force in forces
        if any(other["can_instigate"] for other in forces if other is not force)
        for row in force["rows"]
        if row["kind"] == "unit"
    ]
    free = any(not row["hold"] for row in units)
    return {r.name for r in rules.reactions if free or r.name in rules.hold.reactions}, free


def _stays_with(role: str, able: list[str], forces: list[dict]) -> str:
    """Where only one of two sides can be Instigator (every Unit of the other holds), the role markers never change
    hands: the line that says who keeps this one all game; "" where the roles change hands."""
    if len(able) != 1 or len(forces) != 2:
        return ""
    other = next(force["side"].name for force in forces if force["side"].name != able[0])
    holder = able[0] if role == "instigator" else other
    return f"Stays with {holder} all game."


def counters(forces: list[dict], rules) -> list:
    """The counters a WarSpike game puts on the table: a marker for each Unit, in its side's colour, whose front
    says it has made its Action and whose back its Reaction (the tracker's own marks, from the rule data: one or
    the other a turn); a Unit under hold orders only reacts, so both its faces say Reaction, and a Unit whose side
    can never be Retaliator (the other side's every Unit holds) only acts, so both say Action. And a label for
    each Block, its level over its name, to stand beside the leader it follows."""
    from ...counters import Counter, Face

    marks = {mark.mark: mark for mark in rules.per_turn.tracker_marks if not mark.changeover}
    action, reaction = marks["A"], marks["R"]
    out = []
    for s, force in enumerate(forces):
        side = force["side"]
        retaliates = any(other["can_instigate"] for o, other in enumerate(forces) if o != s)
        for row in force["rows"]:
            if row["kind"] == "unit":
                acted = Face.of(side, action.mark, row["name"], _taken(action.means))
                reacted = Face.of(side, reaction.mark, row["name"], _taken(reaction.means))
                if row["hold"]:
                    out.append(Counter(reacted, reacted))
                else:
                    out.append(Counter(acted, reacted if retaliates else acted))
        for row in force["rows"]:
            if row["kind"] == "block":
                label = Face.of(side, row["level"] or "Block", row["name"])
                out.append(Counter(label))
    return out


def _taken(means: str) -> str:
    """'Action (Instigator)' -> 'Action taken'."""
    return means.split(" (", 1)[0] + " taken"
