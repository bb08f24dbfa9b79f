//! Diagnostics: plain data describing one problem in a `.game` file.
//!
//! Every stage (syntax, checking) produces [`Diagnostic`] values; they are rendered
//! only at the edge, by the command line, through miette (for people) or serde (for
//! editors). Each diagnostic has a stable [`Code`], a severity, a message, labelled
//! spans in the source and an optional help line.

use std::fmt;

use serde::Serialize;

use crate::span::Span;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file cannot be used; `check` exits with status 1.
    Error,
    /// The file works but something in it is likely a mistake.
    Warning,
}

/// A labelled span of the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    /// The bytes the label points at.
    pub span: Span,
    /// What the label says about them.
    pub message: String,
    /// The primary label is the place of the problem itself; others give context.
    pub primary: bool,
}

/// One problem found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable identifier of the kind of problem.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One sentence saying what is wrong.
    pub message: String,
    /// Where, with what the user should look at.
    pub labels: Vec<Label>,
    /// How to fix it, when there is something to suggest.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error of the given kind.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic { code, severity: code.default_severity(), message: message.into(), labels: Vec::new(), help: None }
    }

    /// Adds the primary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: true });
        self
    }

    /// Adds a secondary label, giving context.
    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line if there is one.
    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// The first byte of the primary label, for sorting diagnostics in file order.
    pub fn position(&self) -> u32 {
        self.labels.iter().find(|l| l.primary).or(self.labels.first()).map_or(0, |l| l.span.start)
    }

    /// Whether this is an error (rather than a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident; )*) => {
        /// The stable kinds of diagnostic. Their names never change once released:
        /// editors and scripts may match on them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in declaration order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable kebab-case name, e.g. `unknown-name`.
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// Whether this kind of diagnostic is an error or a warning.
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }
        }
    };
}

codes! {
    /// The file could not be read as text.
    NotText = "not-text", Error;
    /// The file is larger than the checker accepts.
    FileTooLarge = "file-too-large", Error;
    /// Brackets, expressions, or definitions used inside one another, nested deeper
    /// than the language allows.
    NestingTooDeep = "nesting-too-deep", Error;
    /// A closing bracket with no matching opening one, or of the wrong kind.
    UnmatchedBracket = "unmatched-bracket", Error;
    /// An opening bracket that is never closed.
    UnclosedBracket = "unclosed-bracket", Error;
    /// A string that is not closed on its line.
    UnclosedString = "unclosed-string", Error;
    /// The text does not fit the grammar at some point.
    Syntax = "syntax", Error;
    /// A number too large to be used.
    NumberTooLarge = "number-too-large", Error;
    /// A name that refers to nothing declared or built in.
    UnknownName = "unknown-name", Error;
    /// The same name declared twice.
    Duplicate = "duplicate", Error;
    /// A declaration that may appear once appears again, or one that must appear is missing.
    MissingDeclaration = "missing-declaration", Error;
    /// A value of the wrong kind where another is expected.
    TypeMismatch = "type-mismatch", Error;
    /// A call with too many or too few arguments.
    WrongArity = "wrong-arity", Error;
    /// An option value that the option does not have.
    UnknownOptionValue = "unknown-option-value", Error;
    /// A ruleset setting that names an option the file does not declare.
    UnknownOption = "unknown-option", Error;
    /// A construct used where it has no meaning (e.g. `to` outside a move rule).
    OutOfContext = "out-of-context", Error;
    /// A cell label that names no cell of the board.
    NotOnBoard = "not-on-board", Error;
    /// A board that cannot be built.
    BadBoard = "bad-board", Error;
    /// A `match` that does not cover every value, or names one twice.
    NonExhaustiveMatch = "non-exhaustive-match", Error;
    /// A definition that refers to itself, directly or through others.
    RecursiveDefinition = "recursive-definition", Error;
    /// Rules too large once every use of a definition is replaced by its body.
    DefinitionTooLarge = "definition-too-large", Error;
    /// Rules that check but cannot be built with the default options or a ruleset: a
    /// value that cannot be computed before play.
    CannotBuild = "cannot-build", Error;
    /// A form the language describes but cannot play yet where it is used (a piece kind
    /// held in a variable standing for its cells, `kind(c)`).
    NotSupported = "not-supported", Error;
    /// A number outside the range its place allows.
    OutOfRange = "out-of-range", Error;
    /// A move rule missing a clause it needs, or with one it cannot take.
    BadClause = "bad-clause", Error;
    /// A definition, region or other declaration that nothing uses.
    UnusedDefinition = "unused-definition", Warning;
    /// An option that no rule looks at: choosing it changes nothing.
    UnusedOption = "unused-option", Warning;
    /// A rule that can never be reached (e.g. after `stop`, or under a condition that never holds).
    UnreachableRule = "unreachable-rule", Warning;
    /// A rule that can never fire on this board (e.g. a region with no cells).
    NeverFires = "never-fires", Warning;
    /// A `refuse` whose text tells the player nothing (it is empty).
    EmptyReason = "empty-reason", Warning;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
