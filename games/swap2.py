"""Gomoku's swap opening rules (offered with every rule set): who plays which colour.

Two rules, one exchange (``Swap2(..., rule=...)``):

- **Swap2** (``"swap2"``): the *first player* (seat 0) places three stones: black, white,
  black. The *second player* (seat 1) then chooses one of:

  - ``"white"``: to stay white, and play white's fourth stone (the game goes on);
  - ``"black"``: to swap, and take black (the first player, now white, plays the fourth stone);
  - ``"two"``: to place two more stones (white, then black) and let the first player choose:
    ``"white"`` (play white's sixth stone) or ``"black"`` (the second player plays it).

- **Swap1**, plain swap (``"swap1"``): the same three stones, and the second player chooses
  ``"white"`` or ``"black"`` only.

`Swap2` keeps the seat of each colour and the stage of this exchange beside an ordinary
position (`games.gomoku.GomokuState`): the opening stones are its first three or five moves,
placed by the rules' own `play` (so renju's forbidden points apply to them as to any move).
It knows nothing of search or of how a seat decides; `engine.play.swap2` is how the AI does.
Gomocup's protocol (Swap2 only) and records speak of the same stages (docs/rules.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field

PLACE3, CHOOSE3, PLACE2, CHOOSE5, PLAYING = "place3", "choose3", "place2", "choose5", "playing"
#: the stones each placing stage puts down, and the choices each choosing stage offers
STAGE_STONES = {PLACE3: 3, PLACE2: 2}
STAGE_CHOICES = {CHOOSE3: ("white", "black", "two"), CHOOSE5: ("white", "black")}
#: the opening rules, and what each offers at the choosing stages where it differs from Swap2's
RULES = ("swap1", "swap2")
RULE_CHOICES = {"swap1": {CHOOSE3: ("white", "black")}, "swap2": {}}
#: one line for each rule (the app's new-game dialog, `--help`)
HELP = {"swap1": "the first player places two black stones and a white one; the second player takes "
                 "white or black",
        "swap2": "the first player places two black stones and a white one; the second player takes "
                 "white, takes black, or places two more and lets the first player choose"}


class Swap2Error(ValueError):
    """A stone or a choice that the opening does not allow now."""


@dataclass
class Swap2:
    """The exchange of opening ``rule`` (``"swap2"`` or ``"swap1"``) on ``state`` (a gomoku
    position: the stones placed so far).

    ``stage`` says what happens next (`PLACE3`, `CHOOSE3`, `PLACE2`, `CHOOSE5` or `PLAYING`),
    ``chooser`` which seat decides it, ``black_seat`` (once chosen) which seat plays black and
    ``choices`` the choices made so far, in order."""

    state: object
    stage: str = PLACE3
    black_seat: int | None = None
    choices: list[str] = field(default_factory=list)
    rule: str = "swap2"

    def __post_init__(self):
        if self.rule not in RULES:
            raise Swap2Error(f"no opening rule {str(self.rule)[:20]!r} (choose {', '.join(RULES)})")

    @classmethod
    def start(cls, game, rule: str = "swap2") -> "Swap2":
        return cls(game.initial_state(), rule=rule)

    # --- what is asked now -------------------------------------------------------------
    @property
    def chooser(self) -> int:
        """The seat that places the stones or makes the choice of this stage; in `PLAYING`, the
        seat to move."""
        if self.stage in (PLACE3, CHOOSE5):
            return 0
        if self.stage in (CHOOSE3, PLACE2):
            return 1
        return self.seat_of(self.state.current_player)

    @property
    def allowed(self) -> tuple[str, ...]:
        """The choices this stage offers under this rule (none in a placing stage or in play)."""
        return RULE_CHOICES[self.rule].get(self.stage, STAGE_CHOICES.get(self.stage, ()))

    @property
    def placing(self) -> bool:
        return self.stage in STAGE_STONES

    @property
    def choosing(self) -> bool:
        return self.stage in STAGE_CHOICES

    @property
    def opening_stones(self) -> int:
        """How many stones the opening places in all (3, or 5 after ``"two"``)."""
        return 5 if "two" in self.choices else 3

    def seat_of(self, colour: int) -> int:
        """The seat that plays ``colour`` (0 black, 1 white) once the colours are chosen."""
        if self.black_seat is None:
            raise Swap2Error("the colours are not chosen yet")
        return self.black_seat if colour == 0 else 1 - self.black_seat

    # --- the exchange ----------------------------------------------------------------
    def place(self, action: int) -> None:
        """The stone the chooser puts down in a placing stage (the colours alternate as in play)."""
        if not self.placing:
            raise Swap2Error(f"no stone is placed at the {self.stage} stage")
        target = 3 if self.stage == PLACE3 else 5
        try:
            self.state = self.state.play(action)
        except Exception as e:
            raise Swap2Error(str(e)) from None
        if self.state.is_terminal():   # cannot happen with five stones; kept so nothing is left half-done
            self.stage, self.black_seat = PLAYING, 0
        elif len(self.state.moves) == target:
            self.stage = CHOOSE3 if target == 3 else CHOOSE5

    def choose(self, choice: str) -> None:
        """The chooser's choice: ``"white"``, ``"black"`` (or, after three stones under Swap2,
        ``"two"``)."""
        allowed = self.allowed
        if choice not in allowed:
            raise Swap2Error(f"{choice!r} is not a choice at the {self.stage} stage"
                             + (f" (choose {', '.join(allowed)})" if allowed else ""))
        self.choices.append(choice)
        if choice == "two":
            self.stage = PLACE2
            return
        chooser = self.chooser
        self.black_seat = chooser if choice == "black" else 1 - chooser
        self.stage = PLAYING

    def play(self, action: int) -> None:
        """A move of the game after the opening."""
        if self.stage != PLAYING:
            raise Swap2Error(f"the opening is not over ({self.stage})")
        self.state = self.state.play(action)

    # --- records ----------------------------------------------------------------------
    def summary(self) -> str:
        """The opening as records keep it: the rule and the choices, e.g. ``swap2 two black``,
        ``swap1 white``."""
        return " ".join([self.rule] + self.choices)

    @classmethod
    def replay(cls, game, moves, summary: str) -> "Swap2":
        """The exchange of a record: its moves from the start and its `summary` (either rule);
        Swap2Error when they do not fit together (a choice missing or unknown, too few stones)."""
        words = str(summary).strip().lower().split()
        if not words or words[0] not in RULES:
            raise Swap2Error(f"not a swap opening: {str(summary)[:40]!r}")
        opening = cls.start(game, words[0])
        choices = words[1:]
        moves = list(moves)
        for i, action in enumerate(moves):
            while opening.choosing:
                if not choices:
                    raise Swap2Error(f"the record's opening stops at the {opening.stage} stage")
                opening.choose(choices.pop(0))
            if opening.placing:
                opening.place(action)
            else:
                opening.play(action)
        if choices and opening.choosing:
            opening.choose(choices.pop(0))
            if choices and opening.choosing:
                opening.choose(choices.pop(0))
        if choices:
            raise Swap2Error(f"choices {' '.join(choices)!r} left over after the stones")
        return opening
