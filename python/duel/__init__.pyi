"""Type stubs for the package `duel` (the extension duel._duel re-exported).

Kept by hand next to python/bindings/*.cpp; tests/python/test_stubs.py checks
that both name the same classes, functions and attributes.
"""

from typing import Callable, Optional, Sequence, Tuple, Union

import numpy

from .board import Board as Board
from .board import LegalMoves as LegalMoves
from .board import Outcome as Outcome
from .board import Piece as Piece
from .drawing import Svg as Svg
from .drawing import svg as svg

__version__: str

class GameInfo:
    """One game Duel plays: its name, an example spec, a summary."""

    @property
    def name(self) -> str:
        """The game's name, the first part of a spec."""
    @property
    def example(self) -> str:
        """An example spec for duel.load."""
    @property
    def about(self) -> str:
        """What the game is, in one line."""
    @property
    def heuristics(self) -> list[str]:
        """Names of the game's heuristics for search(eval=...), default first."""

def games() -> list[GameInfo]:
    """Every game Duel plays, as `duel games` lists them."""

def load(spec: str) -> Game:
    """The game of a spec such as 'nqueens:n=8,variant=2', 'kcell:n=3,k=15', 'gardner',
    'gardner-cs3243', 'minichess-comp472' or 'checkers'.

    Raises ValueError with the CLI's message when the spec is bad.
    """

class Game:
    """A game: the rules of one spec and its start position. Made by duel.load."""

    @property
    def spec(self) -> str:
        """The canonical spec, every option spelled out (load(spec) gives the same game)."""
    @property
    def name(self) -> str:
        """The game's name, e.g. 'nqueens'."""
    @property
    def heuristics(self) -> list[str]:
        """Names of the heuristics search(eval=...) accepts here, the default first."""
    def initial_state(self) -> State:
        """The start position (Player 1 to move)."""
    def from_text(self, text: str) -> State:
        """The position written as `text` (the form of State.text: FEN for the chess games).

        Raises ValueError with the message `duel search --fen` prints when it is not one.
        """
    @property
    def num_distinct_actions(self) -> int:
        """How many action ids there are: every State.action_id is in 0..this-1 (pyspiel's
        num_distinct_actions; the encodings are in docs/python.md)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape (planes, rows, columns) of every State.observation() of this game."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """A legal move of a position, from State.moves(): its text (as actions() gives it)
    and, where the game has them, its SAN and squares. State.result takes it."""

    @property
    def text(self) -> str:
        """The move as actions() writes it ('b1c3', '11-15')."""
    @property
    def san(self) -> Optional[str]:
        """Its SAN ('Nc3') in the chess games; None elsewhere."""
    @property
    def from_square(self) -> Optional[str]:
        """The square it leaves: 'b1' in the chess games, '11' in checkers (PDN
        numbers); None in the games without one."""
    @property
    def to_square(self) -> Optional[str]:
        """The square it ends on ('c3'; '15', or a jump's last square); None in the
        games without one."""
    @property
    def promotion(self) -> Optional[str]:
        """The piece a pawn becomes ('q'), else None."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

# A move as State.result takes it: text, a Move, or seed 000's tuple
# (('b', 0), ('c', 2)) in the 5x5 chess games.
MoveLike = Union[str, Move, tuple[tuple[str, int], tuple[str, int]]]

class State:
    """A position of a game, with the AIMA interface: to_move, actions(), result(a),
    is_terminal(), utility(). States are values: result() returns a new one."""

    @property
    def to_move(self) -> int:
        """The player to move: 1 (moves first; MAX; in checkers Black) or 2."""
    def actions(self) -> list[str]:
        """The moves as text, in the game's notation (UCI for the chess games); empty when
        the game is over. In gardner-cs3243 and minichess-comp472 these are the
        pseudo-legal moves, as their rules make them: a move may leave the king attacked
        (CS3243: the mover then loses; COMP 472: the king may be captured)."""
    def moves(self) -> list[Move]:
        """The moves of actions(), in the same order, as duel.Move objects (text, SAN,
        squares)."""
    def result(self, action: MoveLike) -> State:
        """The state after `action`: a move as text in any form the game reads (an element
        of actions(); in the chess games SAN such as 'Nc3' too, and 'B2 B3' in COMP 472
        chess), a duel.Move from moves(), or in the 5x5 chess games seed 000's tuple
        (('b', 0), ('c', 2)).

        Raises ValueError with the CLI's message when it is not a legal move.
        """
    def parse(self, move: MoveLike) -> Move:
        """The duel.Move that `move` names (text in any form result() reads, a duel.Move,
        or a tuple in the 5x5 chess games), as python-chess's parse_san does.

        Raises ValueError with the CLI's message when it is not a legal move.
        """
    def san(self, move: MoveLike) -> str:
        """The SAN of a legal move ('Nc3', 'bxc4', 'e5=Q+'), given in any form result()
        reads. Chess games only; ValueError elsewhere or for a move that is not legal."""
    @property
    def end_cause(self) -> str:
        """Why the game is over, in the words of its rules ('checkmate', 'Black's king
        captured', '50-move rule'); '' while it goes on."""
    def action_id(self, move: MoveLike) -> int:
        """The integer id of a legal move (given in any form result() reads), in
        0..Game.num_distinct_actions-1; the same move has the same id in every position.
        Raises ValueError when it is not a legal move."""
    def move_of(self, action_id: int) -> Move:
        """The legal duel.Move whose id is action_id. Raises ValueError when no legal move
        here has it."""
    def legal_action_ids(self) -> list[int]:
        """The ids of the legal moves, sorted (pyspiel's legal_actions()); empty at the end."""
    def observation(self) -> numpy.ndarray:
        """The position as a float32 NumPy array of Game.observation_shape, planes of 0
        and 1 (and fractions for clocks), as docs/python.md lists them per game."""
    def cells(self) -> list[list[str]]:
        """The board as the game's page draws it: rows of cell texts, row 0 at the top
        ('' empty; chess FEN letters, checkers b/B/w/W, N-Queens Q, KCell 1/2)."""
    @property
    def board_kind(self) -> str:
        """'grid' (a board of squares) or 'line' (KCell's row of cells)."""
    def is_check(self) -> bool:
        """True when the side to move's king is attacked (the chess games); False elsewhere."""
    def marks(self) -> list[tuple[int, int]]:
        """The cells the page shades: in N-Queens the empty squares a queen attacks."""
    def move_cells(self, move: MoveLike) -> list[tuple[int, int]]:
        """The cells (row, col) as drawn that a legal move touches: from and to, every
        landing square of a checkers jump, the square of an N-Queens queen."""
    def cell_of(self, square: Union[str, int, Tuple[int, int]]) -> tuple[int, int]:
        """The cell (row, col) as drawn of a square: 'b1' or 0..24 (a1 = 0, b1 = 1, as
        python-chess counts) in the chess games, 1..32 in checkers, (row, col) from 1 in
        N-Queens, 1..k in KCell. ValueError for a square the board does not have."""
    @property
    def result_text(self) -> str:
        """The result as `duel play` writes it: '1-0 White wins by checkmate', '1/2-1/2 draw
        by repetition', 'Player 1 wins: Player 2 has no square left for a queen'; ''
        while the game goes on."""
    @property
    def side_names(self) -> list[str]:
        """The players' names, the first mover first: ['White', 'Black'], ['Black', 'White']
        in checkers, ['Player 1', 'Player 2'] in N-Queens and KCell."""
    def _repr_svg_(self) -> str: ...
    def is_terminal(self) -> bool:
        """True when the game is over."""
    def utility(self) -> int:
        """The payoff of a terminal state in points from Player 1's view: 1 win, -1 loss,
        0 draw (N-Queens 1b: +-k). Raises ValueError before the end."""
    @property
    def key(self) -> int:
        """The position's 64-bit hash as the search uses it (equal for positions that play
        the same, e.g. N-Queens' symmetric boards)."""
    @property
    def text(self) -> str:
        """The position in one line (FEN for the chess games), as `duel search --fen` reads it."""
    @property
    def fen(self) -> str:
        """The same as text."""
    def from_text(self, text: str) -> State:
        """A position of the same game from its text (see Game.from_text)."""
    @property
    def spec(self) -> str:
        """The game's canonical spec."""
    @property
    def game(self) -> Game:
        """The game this position belongs to."""
    def render(self) -> str:
        """The board as `duel play` shows it (several lines); str(state) is the same."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class SearchProgress:
    """What a search's progress callback receives: after each engine iteration (depth set)
    and about every million nodes (depth None)."""

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
    @property
    def seconds(self) -> float:
        """Seconds since the search started."""
    @property
    def depth(self) -> Optional[int]:
        """The depth of the iteration just completed; None on a node-count tick."""
    @property
    def value(self) -> Optional[float]:
        """The iteration's value in points, Player 1's view; None on a tick."""
    @property
    def exact(self) -> bool:
        """The iteration's value is proven."""
    @property
    def pv(self) -> list[str]:
        """The iteration's principal variation as moves."""

class SearchResult:
    """The answer of duel.search and its statistics (those of
    `duel search --json`; to_dict() gives them under the same keys)."""

    @property
    def move(self) -> Optional[str]:
        """The best move as text; None only when the position is terminal."""
    @property
    def value(self) -> float:
        """The value in points from Player 1's view: a proven payoff as a whole number,
        an estimate as a fraction (the CLI's `value`)."""
    @property
    def raw_value(self) -> int:
        """The value on the search's integer scale (100000 a point; a proven win
        in p plies is 100000 - p)."""
    @property
    def value_text(self) -> str:
        """The score as `duel search` and the page write it: an estimate in the game's unit
        from the first player's view ('+10.52', '-0.30', '0.00'), or a proven result
        ('White mates in 3', 'Black wins in 2', 'draw')."""
    @property
    def score(self) -> Optional[float]:
        """The estimate in the game's unit (score_unit) from the first player's view, to two
        decimals, as `duel search` and the page show it; None for a proven result."""
    @property
    def score_unit(self) -> str:
        """'pawns' (the 5x5 chess games), 'men' (checkers) or 'points' (payoff)."""
    @property
    def wins_in(self) -> Optional[int]:
        """A proven win: the winner's moves to the end, positive when the first player wins;
        else None."""
    @property
    def plies_to_end(self) -> Optional[int]:
        """For a proven win or loss, the plies to the end of the game along the best line;
        else (an estimate, a draw) None."""
    @property
    def exact(self) -> bool:
        """The value is the game-theoretic value."""
    @property
    def complete(self) -> bool:
        """False when the time limit (or a progress callback) stopped the search."""
    @property
    def depth(self) -> int:
        """The deepest full iteration (engine) or the cut-off depth used."""
    @property
    def pv(self) -> list[str]:
        """The principal variation as moves, from the root."""
    @property
    def nodes(self) -> int:
        """Nodes visited."""
    @property
    def nodes_by_depth(self) -> list[int]:
        """Nodes visited at each depth, the root at index 0."""
    @property
    def interior(self) -> int:
        """Nodes whose children were searched."""
    @property
    def leaves(self) -> int:
        """Terminal, cut-off and table-answered nodes."""
    @property
    def evaluations(self) -> int:
        """Heuristic calls."""
    @property
    def branching_factor(self) -> float:
        """Average children searched per interior node."""
    @property
    def cutoffs(self) -> int:
        """Beta cut-offs."""
    @property
    def first_move_cutoffs(self) -> int:
        """Beta cut-offs made by the first move searched."""
    @property
    def tt_probes(self) -> int:
        """Transposition-table probes (engine)."""
    @property
    def tt_hits(self) -> int:
        """Transposition-table hits (engine)."""
    @property
    def seconds(self) -> float:
        """Wall time of the search."""
    @property
    def algo(self) -> str:
        """The algorithm: minimax, alphabeta or engine."""
    @property
    def eval(self) -> str:
        """The heuristic used at the cut-off."""
    @property
    def game(self) -> str:
        """The game's canonical spec."""
    @property
    def state(self) -> str:
        """The searched position as text."""
    def to_dict(self) -> dict[str, object]:
        """The result as a dict with the keys of `duel search --json` (plus eval, tt_probes,
        evaluations)."""

def search(
    state: State,
    *,
    depth: int = 0,
    time: float = 0.0,
    algo: str = "engine",
    eval: Optional[str] = None,
    seed: int = 0,
    hash: int = 256,
    ordering: bool = True,
    progress: Optional[Callable[[SearchProgress], object]] = None,
) -> SearchResult:
    """Searches `state` as `duel search` does and returns a SearchResult.

    depth: plies (0 = to the end of the game); time: seconds (0 = none). With neither the
    engine solves the position. algo: 'minimax', 'alphabeta' or 'engine'. eval: a heuristic
    of the game (Game.heuristics; None = the default). seed: for random heuristics.
    hash: the engine's transposition table in MB. ordering: False searches moves in
    generation order (the CLI's --no-ordering).

    progress: None or a callable taking a SearchProgress, called with the GIL held after
    each engine iteration and about every million nodes. If it raises, the search stops
    and the exception propagates from search().

    The GIL is released while searching. Bad arguments raise ValueError with the CLI's
    message.
    """

# An agent: a spec of the CLI's grammar or a function from a state to a move.
Agent = Union[str, Callable[[State], MoveLike]]

class MatchResult:
    """One finished game of duel.play."""

    def board(self) -> Board:
        """MatchResult.board(): the game replayed on a Board (its move stack)."""
    @property
    def san(self) -> str:
        """MatchResult.san: the moves numbered, in SAN in the chess games."""
    def _repr_html_(self) -> str: ...

    @property
    def game(self) -> str:
        """The game's canonical spec."""
    @property
    def start(self) -> str:
        """The start position as text."""
    @property
    def players(self) -> list[str]:
        """The agents' names, Player 1 (who moved first) first."""
    @property
    def moves(self) -> list[str]:
        """The moves played, as text."""
    @property
    def final_state(self) -> State:
        """The position at the end."""
    @property
    def payoff(self) -> int:
        """The result in points from Player 1's view (1 win, -1 loss, 0 draw)."""
    @property
    def winner(self) -> Optional[int]:
        """1 or 2, or None for a draw."""
    @property
    def ending(self) -> str:
        """How it ended: rules, timeout, illegal-move, abandoned, turn-limit."""
    @property
    def reason(self) -> str:
        """Why, in words ('White wins: checkmate', 'draw: 50-move rule')."""
    @property
    def seconds(self) -> float:
        """Wall time of the game."""
    def to_dict(self) -> dict[str, object]:
        """The game record as `duel play --json` writes it (moves with their search
        statistics)."""
    def pgn(self) -> str:
        """The game as `duel play --pgn` (chess games: PGN) or `--pdn` (checkers: PDN)
        writes it: the same tags (Event, Date, the players, Termination), the moves with
        the searches' scores as comments. duel.pgn.read_game reads it back. ValueError
        for the games with neither format."""

def play(
    game: Union[Game, State, str],
    white: Agent,
    black: Agent,
    *,
    state: Optional[str] = None,
    timeout: float = 0.0,
    max_turns: int = 0,
    seed: int = 0,
    on_move: Optional[Callable[[State, str], object]] = None,
) -> MatchResult:
    """Plays one game, refereed as `duel play` does, and returns a MatchResult.

    game: a Game, a spec, or a State to start from. white, black: agent specs as the
    CLI's --white/--black ('engine:time=0.1', 'alphabeta:depth=4,eval=e1', 'random:seed=7',
    ...; in checkers Black moves first) or a callable f(state) -> move text. A callable's
    illegal move (or non-text answer) loses the game; its exception stops the game and
    propagates. state: start from this position's text. timeout: seconds a move (0 =
    none); over it loses. max_turns: a draw after this many turns (0 = none; in
    minichess-comp472 the game's own m, as `duel play --max-turns`). seed: mixed
    into every agent's randomness. on_move: called as on_move(state, move) after each move.

    The GIL is released while spec agents think. Bad specs raise ValueError with the
    CLI's message.
    """

class Standing:
    """One agent's results in duel.arena."""

    @property
    def name(self) -> str:
        """The agent's spec or python:NAME."""
    @property
    def wins(self) -> int:
        """Games won."""
    @property
    def draws(self) -> int:
        """Games drawn."""
    @property
    def losses(self) -> int:
        """Games lost."""
    @property
    def games(self) -> int:
        """Games played."""
    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""

class ArenaGame:
    """One game of duel.arena."""

    @property
    def players(self) -> list[int]:
        """Indices into the agents given: Player 1's, Player 2's."""
    @property
    def start(self) -> str:
        """The start position as text."""
    @property
    def payoff(self) -> int:
        """Points from Player 1's view."""
    @property
    def ending(self) -> str:
        """How it ended (as MatchResult.ending)."""
    @property
    def reason(self) -> str:
        """Why, in words."""
    @property
    def plies(self) -> int:
        """Moves played."""

class ArenaResult:
    """The outcome of duel.arena."""

    @property
    def standings(self) -> list[Standing]:
        """One Standing per agent, in the order given."""
    @property
    def games(self) -> list[ArenaGame]:
        """Every game, in the order they finished."""
    @property
    def elo(self) -> Optional[float]:
        """Two agents: the first's Elo difference over the second (None when one
        scored everything)."""
    @property
    def elo_margin(self) -> Optional[float]:
        """Its 95% margin, as `duel arena` prints it; None when unbounded."""

def fit_ratings(
    players: int, games: Sequence[Tuple[int, int, float]]
) -> list[Tuple[Optional[float], Optional[float]]]:
    """Every player's Elo and its 95% margin from `games`, (i, j, i's score) each, fitted
    jointly as `duel tournament` does (Ordo's model: the most likely ratings), averaging
    0; (None, None) for a player with no game.
    """

def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of an SPRT of elo0 against elo1 after these results, as
    `duel arena --sprt` reports it (cutechess-cli's model; 0 until there is a win, a
    draw and a loss)."""

def arena(
    game: Union[Game, State, str],
    agents: Sequence[Agent],
    *,
    games: int = 10,
    seed: int = 0,
    timeout: float = 0.0,
    max_turns: int = 0,
    openings: int = 0,
    concurrency: int = 1,
) -> ArenaResult:
    """Plays a round-robin between `agents` (specs or callables, as in play), `games`
    games a pairing with colours alternating, and returns an ArenaResult.

    openings: random plies before each pair of games (both colours get each one).
    concurrency: games at once, on threads (Python agents take turns with the GIL).
    seed, timeout, max_turns: as in play. An exception in a Python agent stops the
    arena (games already running finish) and propagates.
    """
