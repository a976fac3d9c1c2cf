"""The standing organisation of a WarSpike army: Units into Blocks into larger Blocks, indexed, linked and checked."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...schema import suggest
from .scenario import Army, Block, Unit

Problem = tuple[tuple, str]  # (path in the scenario, message): checks.py reports them at their spot


@dataclass
class Node:
    """One Unit or Block of a side, with where it was declared and what it belongs to."""

    entry: Unit | Block
    side: int
    index: int
    parent: str | None = None
    children: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def kind(self) -> str:
        return "unit" if isinstance(self.entry, Unit) else "block"

    @property
    def path(self) -> tuple:
        return ("sides", self.side, "units" if self.kind == "unit" else "blocks", self.index)


@dataclass
class Organisation:
    """Every Unit and Block by name, each side's tree roots in printed order, and the broken links found."""

    nodes: dict[str, Node]
    roots: list[list[str]]
    problems: list[Problem]

    def units_of(self, side: int) -> list[Node]:
        return [n for n in self.nodes.values() if n.side == side and n.kind == "unit"]

    def held(self, name: str) -> tuple[bool, bool]:
        """(on hold, inherited from a Block): a Block's hold order covers every Unit within it."""
        if self.nodes[name].entry.hold:
            return True, False
        for parent in self.chain(name):
            if self.nodes[parent].entry.hold:
                return True, True
        return False, False

    def can_instigate(self, side: int) -> bool:
        """seed 002: "There must be at least one unit who can advance" for a side to be Instigator."""
        return any(not self.held(u.name)[0] for u in self.units_of(side))

    def chain(self, name: str) -> list[str]:
        """The Blocks a Unit or Block sits in, innermost first."""
        out = []
        parent = self.nodes[name].parent
        while parent is not None and parent not in out:
            out.append(parent)
            parent = self.nodes[parent].parent
        return out

    def units_within(self, name: str) -> list[Node]:
        node = self.nodes[name]
        if node.kind == "unit":
            return [node]
        return [u for child in node.children for u in self.units_within(child)]

    def leading_unit(self, name: str) -> Node:
        """The Unit a Block follows: its leader member, followed down to a Unit."""
        node = self.nodes[name]
        seen = set()
        while node.kind == "block" and node.name not in seen:
            seen.add(node.name)
            node = self.nodes[node.entry.follows]
        return node


def organise(names: list[str], armies: list[Army]) -> Organisation:
    """Index every name and link Blocks to their members; every broken link is kept as a problem at its spot."""
    nodes: dict[str, Node] = {}
    problems: list[Problem] = []
    for s, army in enumerate(armies):
        for entries in (army.units, army.blocks):
            for i, entry in enumerate(entries):
                node = Node(entry, s, i)
                if node.name in nodes:
                    first = nodes[node.name]
                    problems.append(
                        (
                            node.path + ("name",),
                            f"two Units or Blocks are named {node.name!r} "
                            f"(the first in {names[first.side]!r}); each needs its own name",
                        )
                    )
                    continue
                nodes[node.name] = node
    for s, army in enumerate(armies):
        own = [n.name for n in nodes.values() if n.side == s]
        for b, block in enumerate(army.blocks):
            me = nodes.get(block.name)
            if me is None or me.side != s or me.index != b or me.kind != "block":
                continue  # a duplicate name, already reported
            problems.extend(_link(me, nodes, names, own))
            if block.leader is not None and block.leader not in block.members:
                problems.append(
                    (
                        ("sides", s, "blocks", b, "leader"),
                        f"Block {me.name!r} follows {block.leader!r}, "
                        f"which is not one of its members{suggest(block.leader, block.members)}",
                    )
                )
    problems.extend(_break_cycles(nodes))
    problems.extend(_too_deep(nodes))
    roots = []
    for s in range(len(armies)):
        blocks = [n.name for n in nodes.values() if n.side == s and n.kind == "block" and n.parent is None]
        units = [n.name for n in nodes.values() if n.side == s and n.kind == "unit" and n.parent is None]
        roots.append(blocks + units)
    return Organisation(nodes, roots, problems)


def _link(me: Node, nodes: dict[str, Node], names: list[str], own: list[str]) -> list[Problem]:
    """Make each member of Block `me` its child; a member named twice, unknown, foreign or taken is a problem."""
    problems: list[Problem] = []
    side = names[me.side]
    seen: set[str] = set()
    for m, member in enumerate(me.entry.members):
        where = me.path + ("members", m)
        if member in seen:
            problems.append((where, f"Block {me.name!r} names {member!r} twice"))
            continue
        seen.add(member)
        target = nodes.get(member)
        if target is None:
            problems.append(
                (where, f"Block {me.name!r} names {member!r}, no Unit or Block of {side!r}{suggest(member, own)}")
            )
        elif target.side != me.side:
            problems.append(
                (
                    where,
                    f"Block {me.name!r} of {side!r} names {member!r}, a "
                    f"{'Unit' if target.kind == 'unit' else 'Block'} of {names[target.side]!r}; "
                    "a Block holds the Units of one side only",
                )
            )
        elif target.parent is not None:
            what = "Unit" if target.kind == "unit" else "Block"
            problems.append(
                (
                    where,
                    f"{what} {member!r} is already in Block {target.parent!r}; a {what} belongs "
                    "to one Block (put the whole smaller Block in the larger one instead)",
                )
            )
        else:
            target.parent = me.name
            me.children.append(member)
    return problems


# the most levels a side's tree may have, its top Block the first: an army, division, brigade, battalion, company,
# platoon, section and fire team are eight; the roster prints a column a level, and fifteen did not fit a page
MOST_LEVELS = 10


def _too_deep(nodes: dict[str, Node]) -> list[Problem]:
    """A Block or Unit more than MOST_LEVELS deep is a problem once, at the member that goes one level too far
    (the loop through it cut, so the tree can still be walked)."""
    problems: list[Problem] = []

    def visit(name: str, level: int) -> None:
        node = nodes[name]
        for child in list(node.children):
            if level + 1 > MOST_LEVELS:
                m = node.entry.members.index(child)
                problems.append(
                    (
                        node.path + ("members", m),
                        f"{child!r} is {level + 1} levels down its side's tree; a roster prints at most {MOST_LEVELS}",
                    )
                )
                node.children.remove(child)
            else:
                visit(child, level + 1)

    for name, node in nodes.items():
        if node.parent is None:
            visit(name, 1)
    return problems


def _break_cycles(nodes: dict[str, Node]) -> list[Problem]:
    """A Block nested in itself, directly or through other Blocks, is a problem once, at the member closing the loop."""
    problems: list[Problem] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        node = nodes[name]
        for child in list(node.children):
            if nodes[child].kind != "block":
                continue
            if state.get(child) == 1:
                loop = path[path.index(child) :] + [name, child] if child in path else [name, child]
                m = node.entry.members.index(child)
                problems.append(
                    (node.path + ("members", m), f"Block {child!r} is nested in itself: {' > '.join(loop)}")
                )
                node.children.remove(child)  # break the loop so the tree can still be walked
            elif state.get(child) is None:
                visit(child, path + [name])
        state[name] = 2

    for name, node in nodes.items():
        if node.kind == "block" and state.get(name) is None:
            visit(name, [])
    return problems
