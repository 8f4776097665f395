"""The game as a tree of lines, as the play and demo controllers keep it (a mixin of
`gui.session.GameSession`): the nodes of the line on the board, opening another line from the
move list, the moves tried instead of a move, promoting, deleting, comments.

The session's lists (``history``, ``evals``, ``grades``, ``clocks``) are the line on the board;
its nodes (``line``) keep each position's evaluation, grade and recorded clocks while another
line is shown (`_sync`).
"""
from __future__ import annotations

from itertools import takewhile

from games.records.tree import GameTree, Node
from gui.review import final_evaluation

#: how a game ends off the board, each with its value while it has not: the player who resigned,
#: the player who ran out of time, a draw agreed. The session holds them for the line on the
#: board; a line's last node keeps them (its ``data``) while another line is shown.
OFF_BOARD_ENDS = {"resigned_by": None, "time_loss": None, "agreed_draw": False}


def ended_off_board(get) -> bool:
    """Whether ``get(name, default)`` (a session's attributes, a node's ``data.get``) holds an
    end off the board (`OFF_BOARD_ENDS`)."""
    return any(get(name, none) != none for name, none in OFF_BOARD_ENDS.items())


class GameTreeLines:
    """The variations part of `gui.session.GameSession` (see the module docstring)."""

    @property
    def ended_off_board(self) -> bool:
        """The line on the board ended off the board: resigned, lost on time or drawn by agreement."""
        return ended_off_board(lambda name, none: getattr(self, name, none))

    def _clear_off_board_end(self) -> None:
        for name, none in OFF_BOARD_ENDS.items():
            setattr(self, name, none)

    def _sync(self) -> list[Node]:
        """The tree's nodes of ``history`` (made to match it, should the lists have been changed
        directly), with the line's evaluations and grades kept in them."""
        line = self._aligned()
        for node, e, g in zip(line, self.evals, self.grades):
            node.data["eval"], node.data["grade"] = e, g
        for node, snap in zip(line, getattr(self, "clocks", ())):   # each position's recorded clocks
            node.data["clock"] = snap
        return line

    def _aligned(self) -> list[Node]:
        """The tree's nodes of ``history``, made to match it (`_sync` without storing the line's
        evaluations and clocks in them: for the questions asked every frame)."""
        h = self.history
        if not self.line or self.line[0].state is not h[0]:
            if self.tree.root.state is not h[0]:
                self.tree = GameTree(h[0])
                self._redo = []
            self.line = [self.tree.root]
        line = self.line
        for k in range(1, len(h)):
            if k < len(line) and line[k].state is h[k]:
                continue
            del line[k:]
            state = h[k]
            action = state.moves[-1]
            node = line[-1].child(action)
            if node is None:
                node = self.tree.add(line[-1], action, state)
                self.tree_version += 1
            node.state = state
            line.append(node)
        del line[len(h):]
        return line

    def _show_line(self, nodes: list[Node], index: int) -> None:
        """Put the line ``nodes`` on the board, looking at its position ``index``; the game goes
        on from its end (a search for the old end is cancelled; "Analyse game" goes on, by nodes).
        Looking discards nothing: the moves undo took back stay to redo once the line they
        follow is on the board again (``redo_stack`` offers them only there)."""
        old = self._sync()
        for name in OFF_BOARD_ENDS:   # the old line's end keeps how it ended, this one's comes back
            old[-1].data[name] = getattr(self, name)
        self.cancel_ai()
        if self.full_analysis is None:
            self.cancel_analysis()
        self.history = [n.state for n in nodes]
        self.evals = [n.data.get("eval") or final_evaluation(n.state) for n in nodes]
        self.grades = [n.data.get("grade") or final_evaluation(n.state) for n in nodes]
        self.line = list(nodes)
        for name, none in OFF_BOARD_ENDS.items():
            setattr(self, name, nodes[-1].data.get(name, none))
        self.error = ""
        self.pending_move = None
        self.session = self._new_session()   # the AI's tree no longer matches the game
        self.cursor = None if index >= len(nodes) - 1 else max(0, index)
        self.waiting = True
        self.events.append({"type": "view"})

    @property
    def viewed_node(self) -> Node:
        return self._sync()[self.view_index]

    def go_to_node(self, node: Node) -> bool:
        """Show the position of ``node`` (a move of any line in the tree): within the line on
        the board, as `go_to`; in a variation, that variation becomes the line on the board."""
        line = self._sync()
        for i, n in enumerate(line):
            if n is node:
                return self.go_to(i)
        path = self.tree.path_to(node)
        if path[0] is not self.tree.root:
            return False   # a node deleted meanwhile
        game = self.tree.path_to(getattr(self, "clock_node", self.tree.root))
        if game[0] is self.tree.root and len(path) <= len(game) and game[len(path) - 1] is node:
            self._show_line(game, len(path) - 1)   # a move of the game's own line: the game comes back, where it is
        else:
            self._show_line(self.tree.line_through(node), len(path) - 1)
        return True

    def switch_variation(self, step: int) -> bool:
        """Show the next (``step`` 1) or previous (-1) move played instead of the viewed one
        (or, where the viewed move has none, instead of the move after it); False when none."""
        line = self._sync()
        i = self.view_index
        for k in (i, i + 1):
            if 0 < k < len(line):
                other = self.tree.sibling(line[k], step)
                if other is not None:
                    return self.go_to_node(other)
        return False

    def variation_count(self) -> int:
        """How many moves were played instead of the viewed one (or the next), for the panel."""
        line = self._sync()
        for k in (self.view_index, self.view_index + 1):
            if 0 < k < len(line) and len(line[k].parent.children) > 1:
                return len(line[k].parent.children)
        return 0

    def promote_view(self) -> bool:
        """Make the line through the viewed move the main line; False when it already is."""
        changed = self.tree.promote(self._sync()[self.view_index])
        if changed:
            self.tree_version += 1
        return changed

    def deletion_size(self) -> int:
        """How many moves deleting the viewed move (`delete_view`) would discard (0: none to delete)."""
        i = self.view_index
        return 0 if i == 0 else self.tree.size(self._sync()[i])

    def delete_view(self) -> int:
        """Delete the viewed move and every move after it in all lines (the board shows the
        position before it, on its main line); returns how many moves went (0: none, at the start)."""
        line = self._sync()
        i = self.view_index
        if i == 0:
            return 0
        node, parent = line[i], line[i - 1]
        n = self.tree.delete(node)
        # the moves taken back from the deleted move on are gone, and no longer there to redo
        self._redo = list(takewhile(lambda m: self.tree.path_to(m)[0] is self.tree.root, self._redo))
        self._show_line(self.tree.line_through(parent), i - 1)
        self.tree_version += 1
        return n

    def comment_at(self, index: int) -> str:
        """The comment on the move that led to position ``index`` of the line (on the start)."""
        line = self._sync()
        return line[index].comment if 0 <= index < len(line) else ""

    def set_comment(self, text: str) -> None:
        """Keep ``text`` as the comment on the viewed move (one paragraph, at most 2000 characters)."""
        self._sync()[self.view_index].comment = " ".join(str(text).split())[:2000]
        self.tree_version += 1

    def variations_at(self, lang: str, limit: int = 8) -> dict[int, list[list[tuple[Node, str]]]]:
        """The moves played instead of each move of the line on the board, for the move list:
        {index of the move replaced (len(history): after the last move, the moves undo took
        back): [variation: [(node, move text)] along its main line, at most ``limit`` moves]}.
        The variation that holds the game's own line, while another line is shown, follows the
        game's moves (`gui.session.GameSession.game_line`), whichever line is the main one."""
        line = self._sync()
        out: dict[int, list] = {}
        game = self.game_line() if hasattr(self, "game_line") else line
        game_next = {id(g.parent): g for g in game[1:]}   # each game move, by the node it follows

        def text(n):
            before = n.parent.state
            try:
                return before.action_to_display(n.action, lang)
            except Exception:
                return str(n.action)
        for k, node in enumerate(line):
            others = [c for c in node.children if k + 1 >= len(line) or c is not line[k + 1]]
            for start in others:
                moves, n = [], start
                while n is not None and len(moves) < limit:
                    moves.append((n, text(n)))
                    n = game_next.get(id(n)) or (n.children[0] if n.children else None)
                if n is not None:
                    moves.append((n, "…"))
                out.setdefault(k + 1, []).append(moves)
        return out

    def record_line(self) -> tuple:
        """(the main line's last position, the tree): the game as its record keeps it."""
        self._sync()
        return self.tree.main_line()[-1].state, self.tree
