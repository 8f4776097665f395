"""A game as a tree of moves: the main line and its variations, with a comment on any move.

Each `Node` holds the position after its move; its first child is the main line, the others
are variations (alternatives to that move). The tree is what a record with variations holds
(SGF's ``(;...)`` branches, PGN's ``(...)``, the app's text record's ``# tree:`` header) and
what the GUI keeps of a game, so that playing a different move in an earlier position keeps
the old line instead of deleting it.

`write_rav` and `read_rav` spell a tree as move text in the game's own notation with PGN's
conventions, ``b2 a1 (c3 {a comment}) c1``: a variation in parentheses after the move it
replaces, a comment in braces after its move (before the first move: the start position's).
Reading is bounded (`MAX_NESTING` levels of parentheses, `MAX_NODES` positions) and every fault
is a `RecordFormatError` naming the problem; everything here is iterative, so a long game or a
deep tree never meets Python's recursion limit.
"""
from __future__ import annotations

from typing import Callable, Iterator

from ..base import State
from .base import RecordFormatError, play_move

#: variations inside variations: deeper nesting is refused as a damaged (or hostile) record
MAX_NESTING = 500
#: positions in a tree (the main line and every variation)
MAX_NODES = 20_000


class Node:
    """One position of a game tree: the state after ``action`` (None at the root), its parent,
    its children (the first is the main line), a comment and ``data``, what a user of the
    tree keeps about the position (the GUI's evaluations)."""
    __slots__ = ("state", "parent", "children", "comment", "data")

    def __init__(self, state: State, parent: "Node | None" = None):
        self.state = state
        self.parent = parent
        self.children: list[Node] = []
        self.comment = ""
        self.data: dict = {}

    @property
    def action(self) -> int | None:
        """The move that led here (None at the root)."""
        return self.state.moves[-1] if self.parent is not None and self.state.moves else None

    @property
    def ply(self) -> int:
        """The moves from the game's start (a set-up position's count too)."""
        return len(self.state.moves)

    def child(self, action: int) -> "Node | None":
        """The child reached by ``action``, or None."""
        for c in self.children:
            if c.action == action:
                return c
        return None

    @property
    def is_main(self) -> bool:
        """On its parent's main line (the root is)."""
        return self.parent is None or self.parent.children[0] is self

    def __repr__(self) -> str:
        return f"Node(ply={self.ply}, action={self.action}, children={len(self.children)})"


class GameTree:
    """A game's moves as a tree from ``root`` (see the module docstring)."""

    def __init__(self, start: State):
        self.root = Node(start)
        self.count = 1   # nodes in the tree

    # --- building --------------------------------------------------------------------
    def add(self, node: Node, action: int, state: State | None = None) -> Node:
        """The child of ``node`` reached by ``action``: the existing one, else a new last child
        (the main line when it is the first). ``state`` is the position after the move when the
        caller has it (else it is played here; an illegal move raises the game's error)."""
        found = node.child(action)
        if found is not None:
            return found
        if self.count >= MAX_NODES:
            raise RecordFormatError(f"the game has more than {MAX_NODES} positions in its variations")
        new = Node(state if state is not None else node.state.play(action), node)
        node.children.append(new)
        self.count += 1
        return new

    @classmethod
    def from_line(cls, states) -> "GameTree":
        """A tree holding the single line ``states`` (positions 0..n, each the one before it
        after one move)."""
        states = list(states)
        tree = cls(states[0])
        node = tree.root
        for s in states[1:]:
            node = tree.add(node, s.moves[-1], s)
        return tree

    # --- reading ---------------------------------------------------------------------
    def main_line(self, node: Node | None = None) -> list[Node]:
        """``node`` (the root by default) and its main line: first children to the end."""
        node = node or self.root
        out = [node]
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    @staticmethod
    def path_to(node: Node) -> list[Node]:
        """The nodes from the root to ``node``."""
        out = []
        while node is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def line_through(self, node: Node) -> list[Node]:
        """The line from the root through ``node`` and on along its main line."""
        return self.path_to(node)[:-1] + self.main_line(node)

    def find(self, moves) -> Node | None:
        """The node reached from the root by ``moves`` (actions after the root's), or None."""
        node = self.root
        for a in moves:
            node = node.child(a)
            if node is None:
                return None
        return node

    def nodes(self) -> Iterator[Node]:
        """Every node, the root first (depth first, main lines before variations)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def has_variations(self) -> bool:
        return any(len(n.children) > 1 for n in self.nodes())

    def has_comments(self) -> bool:
        return any(n.comment for n in self.nodes())

    @property
    def plain(self) -> bool:
        """Only a main line without comments: a record needs nothing beyond its moves."""
        return not self.has_variations() and not self.has_comments()

    @staticmethod
    def size(node: Node) -> int:
        """The positions in ``node``'s subtree, itself included."""
        n, stack = 0, [node]
        while stack:
            x = stack.pop()
            n += 1
            stack.extend(x.children)
        return n

    @staticmethod
    def siblings(node: Node) -> list[Node]:
        """The moves played instead of ``node``'s in the same position, ``node`` among them."""
        return [node] if node.parent is None else list(node.parent.children)

    @staticmethod
    def sibling(node: Node, step: int) -> Node | None:
        """The next (``step`` 1) or previous (-1) alternative to ``node``'s move, or None."""
        if node.parent is None:
            return None
        kids = node.parent.children
        i = kids.index(node) + step
        return kids[i] if 0 <= i < len(kids) else None

    # --- editing ---------------------------------------------------------------------
    @staticmethod
    def promote(node: Node) -> bool:
        """Make the line through ``node`` the main line (each move on its way becomes its
        position's first choice); False when it already was."""
        changed = False
        while node.parent is not None:
            kids = node.parent.children
            if kids[0] is not node:
                kids.remove(node)
                kids.insert(0, node)
                changed = True
            node = node.parent
        return changed

    def delete(self, node: Node) -> int:
        """Remove ``node`` and everything after it; returns how many positions went. The root
        cannot be deleted (ValueError)."""
        if node.parent is None:
            raise ValueError("the start position cannot be deleted")
        n = self.size(node)
        node.parent.children.remove(node)
        node.parent = None
        self.count -= n
        return n

    def reroot(self, node: Node) -> "GameTree":
        """A tree whose start is ``node`` (what comes before it is dropped)."""
        tree = GameTree(node.state)
        tree.root = node
        node.parent = None
        tree.count = self.size(node)
        return tree


def node_at(tree: "GameTree | None", state: State, start: State) -> "Node | None":
    """The node of ``tree`` for ``start`` (a position on ``state``'s line, where a record's moves
    begin), when the tree's main line from it is ``state``'s moves; None without a tree or when
    the tree is not this game (ValueError: a writer is given a tree of another game)."""
    if tree is None or tree.plain:
        return None
    base = len(tree.root.state.moves)
    moves = tuple(state.moves)
    if moves[:base] != tuple(tree.root.state.moves) or len(start.moves) < base:
        raise ValueError("the game tree does not start on the game's line")
    node = tree.find(moves[base:len(start.moves)])
    if node is None or [n.action for n in tree.main_line(node)[1:]] != list(moves[len(start.moves):]):
        raise ValueError("the game tree's main line is not the game's moves")
    return node


def start_of(state: State) -> State:
    """The position ``state``'s moves start from: the game's start, or the position set up by
    hand (a xiangqi FEN, an othello setup) its text begins with."""
    text = state.to_text()
    if " moves " in text:
        return state.game.state_from_text(text.split(" moves ", 1)[0])
    return state if not state.moves else state.game.initial_state()


def line_of(state: State) -> list[State]:
    """The states from the start to ``state`` (replayed), or ``[state]`` when they cannot be."""
    try:
        states = [start_of(state)]
        for a in state.moves[len(states[0].moves):]:
            states.append(states[-1].apply(a))
        if states[-1].key() == state.key():
            return states
    except Exception:
        pass
    return [state]


# --- move text with variations (RAV) ---------------------------------------------------------
def clean_comment(text: str) -> str:
    """A comment as move text can hold it: one line, no braces."""
    return " ".join(str(text).replace("{", "(").replace("}", ")").split())


def write_rav(root: Node, move_word: Callable[[Node, bool], str],
              comment_of: Callable[[Node], str] | None = None,
              notes_of: Callable[[Node], list[str]] | None = None) -> list[str]:
    """The words of the tree below ``root``: each move (``move_word(node, after_break)``, where
    ``after_break`` says a variation or a comment came just before, for PGN's ``3...``), each
    comment in braces after its move, each variation in parentheses after the move it replaces.
    ``notes_of(node)``: words written right after a move, before its comment (PGN's clock
    comments); they are not a break."""
    comment_of = comment_of or (lambda node: clean_comment(node.comment))
    words: list[str] = []
    first = comment_of(root)
    if first:
        words.append("{" + first + "}")
    if not root.children:
        return words
    # the work: ("line", node, after_break) plays node's line; ("word", text) writes text
    stack: list[tuple] = [("line", root.children[0], bool(first))]
    while stack:
        item = stack.pop()
        if item[0] == "word":
            words.append(item[1])
            continue
        node, brk = item[1], item[2]
        while True:
            words.append(move_word(node, brk))
            if notes_of is not None:
                words += notes_of(node)
            brk = False
            text = comment_of(node)
            if text:
                words.append("{" + text + "}")
                brk = True
            others = node.parent.children[1:] if node.is_main else []   # the alternatives to this move
            if others:
                todo: list[tuple] = []
                for alt in others:
                    todo += [("word", "("), ("line", alt, True), ("word", ")")]
                if node.children:
                    todo.append(("line", node.children[0], True))
                stack.extend(reversed(todo))
                break
            if not node.children:
                break
            node = node.children[0]
    return words


def join_rav(words: list[str], width: int = 0) -> str:
    """``words`` as text, ``(`` and ``)`` against what they enclose; with ``width``, lines of
    at most that many characters (a word is never split)."""
    lines, line = [], ""
    glue = False
    for w in words:
        if line and width and len(line) + 1 + len(w) > width and w != ")" and not glue:
            lines.append(line)
            line = w
        elif not line:
            line = w
        else:
            line += w if glue or w == ")" else " " + w
        glue = w == "("
    lines.append(line)
    return "\n".join(lines) if width else lines[0]


def read_rav(text: str, start: State, tree: GameTree | None = None, line: int | None = None) -> GameTree:
    """The tree that ``text`` (as `write_rav` writes it with plain moves) spells from ``start``;
    RecordFormatError naming the fault (``line``: the record's line the text is on)."""
    tree = tree or GameTree(start)
    builder = TreeBuilder(tree, line)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise RecordFormatError("a comment '{' is never closed", line)
            builder.comment(text[i + 1:end])
            i = end + 1
        elif c == "(":
            builder.open()
            i += 1
        elif c == ")":
            builder.close()
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "(){}":
                j += 1
            if j == i:
                raise RecordFormatError(f"unexpected {c!r} in the moves", line)
            builder.move(text[i:j], (line, None))
            i = j
    builder.finish()
    return tree


class TreeBuilder:
    """Builds a tree from move text read in order: moves, comments, and variations opened and
    closed (PGN's RAV), with the nesting bounded and each fault named."""

    def __init__(self, tree: GameTree, line: int | None = None):
        self.tree = tree
        self.node = tree.root
        self.stack: list[Node] = []
        self.line = line

    @property
    def depth(self) -> int:
        return len(self.stack)

    def open(self, where=None) -> None:
        """A '(': the next moves replace the last move played."""
        where = where or (self.line, None)
        if self.node.parent is None:
            raise RecordFormatError("a variation '(' before any move it could replace", *where)
        if len(self.stack) >= MAX_NESTING:
            raise RecordFormatError(f"variations nested more than {MAX_NESTING} deep", *where)
        self.stack.append(self.node)
        self.node = self.node.parent

    def close(self, where=None) -> None:
        """A ')': back to the line the variation left."""
        if not self.stack:
            raise RecordFormatError("')' closes no variation", *(where or (self.line, None)))
        self.node = self.stack.pop()

    def move(self, token: str, where, index: int | None = None) -> Node:
        """Play ``token`` (the game's notation) from the current position."""
        state = self.node.state
        count = index if index is not None else len(state.moves) - len(self.tree.root.state.moves) + 1
        try:
            after = play_move(state, token, where, count)
        except RecordFormatError as e:
            if self.stack:
                raise RecordFormatError("in a variation: " + e.reason, e.line, e.column) from None
            raise
        return self.add(after)

    def add(self, after: State) -> Node:
        """Go on to the position ``after`` (one move after the current one)."""
        self.node = self.tree.add(self.node, after.moves[-1], after)
        return self.node

    def comment(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.node.comment = f"{self.node.comment} {text}".strip() if self.node.comment else text

    def finish(self, where=None) -> None:
        if self.stack:
            raise RecordFormatError("a variation '(' is never closed", *(where or (self.line, None)))
