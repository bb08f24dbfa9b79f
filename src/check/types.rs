//! The types of the rules language and how values convert between them.

use std::fmt;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `true` or `false`: a condition.
    Bool,
    /// A whole number.
    Number,
    /// One cell of the board (possibly none, off the board).
    Cell,
    /// A set of cells.
    Cells,
    /// One direction.
    Direction,
    /// A set of directions.
    Directions,
    /// A player (a seat) or a colour.
    Player,
    /// A kind of piece.
    Kind,
    /// A flag pieces can carry.
    Flag,
    /// A symmetry of the board.
    Symmetry,
    /// A phase of the game.
    Phase,
    /// A kind of move (`place`, `step`, ...).
    Action,
    /// A text.
    Text,
    /// The value of an enumerated option (by option index).
    Enum(u16),
    /// The previous turn: a record with fields.
    Record,
    /// A list of elements of one type.
    List(Elem),
    /// The type of an expression that already has an error: accepted anywhere, so
    /// one mistake is reported once.
    Error,
}

/// The element types lists may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// Numbers.
    Number,
    /// Cells.
    Cell,
    /// Sets of cells (e.g. groups).
    Cells,
    /// Directions.
    Direction,
    /// Players or colours.
    Player,
    /// Symmetries.
    Symmetry,
    /// Kinds.
    Kind,
    /// Anything (an empty list).
    Any,
}

impl Elem {
    /// The type of one element.
    pub fn ty(self) -> Ty {
        match self {
            Elem::Number => Ty::Number,
            Elem::Cell => Ty::Cell,
            Elem::Cells => Ty::Cells,
            Elem::Direction => Ty::Direction,
            Elem::Player => Ty::Player,
            Elem::Symmetry => Ty::Symmetry,
            Elem::Kind => Ty::Kind,
            Elem::Any => Ty::Error,
        }
    }

    /// The element type for values of `ty`, if lists can hold them.
    pub fn of(ty: Ty) -> Option<Elem> {
        Some(match ty {
            Ty::Number => Elem::Number,
            Ty::Cell => Elem::Cell,
            Ty::Cells => Elem::Cells,
            Ty::Direction => Elem::Direction,
            Ty::Player => Elem::Player,
            Ty::Symmetry => Elem::Symmetry,
            Ty::Kind => Elem::Kind,
            Ty::Error => Elem::Any,
            _ => return None,
        })
    }
}

impl Ty {
    /// The element type when iterating over a value of this type.
    pub fn element(self) -> Option<Ty> {
        match self {
            Ty::Cells => Some(Ty::Cell),
            Ty::Directions => Some(Ty::Direction),
            Ty::List(e) => Some(e.ty()),
            Ty::Error => Some(Ty::Error),
            _ => None,
        }
    }

    /// Whether this is a collection (something `count`, `any` and `for` accept).
    pub fn is_collection(self) -> bool {
        self.element().is_some()
    }

    /// The type's name as the user writes it in a parameter, if it has one.
    pub fn from_name(name: &str) -> Option<Ty> {
        Some(match name {
            "bool" => Ty::Bool,
            "number" => Ty::Number,
            "cell" => Ty::Cell,
            "cells" => Ty::Cells,
            "direction" => Ty::Direction,
            "directions" => Ty::Directions,
            "player" => Ty::Player,
            "kind" => Ty::Kind,
            "flag" => Ty::Flag,
            "symmetry" => Ty::Symmetry,
            "groups" => Ty::List(Elem::Cells),
            _ => return None,
        })
    }

    /// The parameter type names, for suggestions.
    pub const NAMES: &'static [&'static str] =
        &["bool", "number", "cell", "cells", "direction", "directions", "player", "kind", "flag", "symmetry", "groups"];
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Ty::Bool => "a condition",
            Ty::Number => "a number",
            Ty::Cell => "a cell",
            Ty::Cells => "a set of cells",
            Ty::Direction => "a direction",
            Ty::Directions => "a set of directions",
            Ty::Player => "a player",
            Ty::Kind => "a piece kind",
            Ty::Flag => "a flag",
            Ty::Symmetry => "a symmetry",
            Ty::Phase => "a phase",
            Ty::Action => "a kind of move",
            Ty::Text => "a text",
            Ty::Enum(_) => "an option value",
            Ty::Record => "a record",
            Ty::List(e) => match e {
                Elem::Number => "a list of numbers",
                Elem::Cell => "a list of cells",
                Elem::Cells => "a list of cell sets",
                Elem::Direction => "a list of directions",
                Elem::Player => "a list of players",
                Elem::Symmetry => "a list of symmetries",
                Elem::Kind => "a list of piece kinds",
                Elem::Any => "a list",
            },
            Ty::Error => "anything",
        };
        f.write_str(s)
    }
}
