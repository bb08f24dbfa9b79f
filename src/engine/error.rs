//! Run-time errors: what a game the checker accepts may still do wrong while it is
//! played (a chain of parts that never ends, more turns than can be listed, a stack
//! that is full). Each is a clear error returned by the function that meets it
//! ([`Game::legal_moves`](super::Game::legal_moves),
//! [`Game::random_move`](super::Game::random_move), [`Game::play`](super::Game::play),
//! perft, random playouts, the computer's search), never a panic or an abort.

/// The most parts one turn may have. A chain of parts (`again`, move rules in `then`
/// blocks) may not return to a position it has already reached in the same turn, so
/// most chains end by the rules' own semantics; one that goes on reaching new positions
/// past this many parts is an error ([`EngineErrorKind::TurnTooLong`]). Far above any real
/// game (a capture chain on a large board has a few dozen parts), and it bounds
/// the depth of the search over a turn's parts, which recurses once per part: about
/// 2.5 KB of stack per part on boards of up to 64 cells, 6 KB on the largest, so a turn
/// at the limit needs up to 6 MB of stack (the main thread has 8 MB; every thread the
/// commands start to play or search has [`SEARCH_STACK`]).
pub const MAX_TURN_PARTS: usize = 1000;

/// The stack of the threads that play and search (`bench`, `perft --threads`, `study`,
/// the server's computer player): room for a turn of [`MAX_TURN_PARTS`] parts on the
/// largest board, with a margin (the default of a new thread, 2 MB, is not).
pub const SEARCH_STACK: usize = 16 << 20;

/// The most parts (of all turns together) the legal turns of one position may hold
/// when they are listed ([`EngineErrorKind::TooManyTurns`]): 4 million, about 50 MB.
pub const MAX_LISTED_PARTS: usize = 4_000_000;

/// The most pieces a stack holds ([`EngineErrorKind::StackFull`]).
pub const MAX_STACK: usize = 64;

/// A run-time error of the engine: what went wrong is its [`kind`](EngineError::kind).
/// One pointer (the kind is boxed), so that the results of the functions played in a
/// loop (`random_move`, `play`) stay as small as their values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct EngineError(Box<EngineErrorKind>);

impl EngineError {
    /// What went wrong.
    pub fn kind(&self) -> &EngineErrorKind {
        &self.0
    }
}

impl From<EngineErrorKind> for EngineError {
    #[cold]
    fn from(k: EngineErrorKind) -> EngineError {
        EngineError(Box::new(k))
    }
}

/// What went wrong in an [`EngineError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineErrorKind {
    /// A turn would have more than [`MAX_TURN_PARTS`] parts (an [`EngineError`]'s kind).
    #[error("this turn has more than {MAX_TURN_PARTS} parts: the chain at {cell} never ends")]
    TurnTooLong {
        /// Where the chain was when it reached the limit.
        cell: String,
    },
    /// The legal turns of a position hold more than [`MAX_LISTED_PARTS`] parts.
    #[error(
        "the legal turns of move {move_number} ({player} to move) have more than {MAX_LISTED_PARTS} parts in all: \
         too many to list"
    )]
    TooManyTurns {
        /// The position's move number (see [`Game::move_number`](super::Game::move_number)).
        move_number: u32,
        /// The player to move.
        player: String,
    },
    /// A piece was put on a stack that already holds [`MAX_STACK`] pieces.
    #[error("a stack holds at most {MAX_STACK} pieces: the stack at {cell} is full")]
    StackFull {
        /// The cell of the full stack.
        cell: String,
    },
}

/// Why a checked game could not be built with the option values given: what the
/// checker cannot rule out before the options are known (a board size an option makes
/// impossible, a value that cannot be computed, a cell that the options leave off the
/// board).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The game declares no board.
    #[error("the game has no board")]
    NoBoard,
    /// The board's description cannot be made into a board.
    #[error("the board cannot be built: {0}")]
    Board(String),
    /// `neighbours` is not a direction or a set of directions.
    #[error("the board's neighbours are not directions")]
    NeighboursNotDirections,
    /// A phase's `turns` is not a whole number.
    #[error("phase {phase}: `turns` must be a whole number")]
    PhaseTurns {
        /// The phase.
        phase: String,
    },
    /// A phase's `by` or `starting` is not a player.
    #[error("phase {phase}: not a player")]
    PhaseNotPlayer {
        /// The phase.
        phase: String,
    },
    /// A counter's index is not a list.
    #[error("counter {counter}: an index is not a list")]
    CounterIndexNotList {
        /// The counter.
        counter: String,
    },
    /// A counter's index holds a value that cannot index.
    #[error("a counter index must be players, colours, symmetries, numbers or cells")]
    CounterIndexKey,
    /// Definitions nest deeper than the checker allows.
    #[error("definitions used inside one another more than {} deep", crate::check::bounds::MAX_DEF_NESTING)]
    TooDeep,
    /// A cell named by its label is not on the board with these options.
    #[error("there is no cell {label} on this board (with these options)")]
    NoCell {
        /// The label.
        label: String,
    },
    /// A direction, set of directions or symmetry the board does not have.
    #[error("no {what} {name}")]
    NotOnBoard {
        /// `direction`, `directions` or `symmetry`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A value that cannot be computed before play (the evaluator's message).
    #[error("{0}")]
    Value(String),
    /// Something the checker refuses met in a model anyway (a model not made by the
    /// checker).
    #[error("{0}")]
    Unchecked(&'static str),
    /// An expression the engine has no code for (a value of a type the checker should
    /// have refused where it stands).
    #[error("the engine cannot play this expression: {0}")]
    Unlowered(String),
}

impl From<String> for BuildError {
    fn from(message: String) -> BuildError {
        BuildError::Value(message)
    }
}
