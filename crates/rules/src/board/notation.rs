//! Position strings (FEN, Hub, DXP) and move text (PDN and Hub), parsed and printed.
//!
//! Text is parsed in two steps: first into an unvalidated value (syntax errors), then
//! resolved against a position (illegal or ambiguous moves, impossible positions).

use super::bitboard::{BitIter, Bitboard};
use super::movegen::legal_moves;
use super::moves::Move;
use super::position::{Piece, Position, PositionError, Side};
use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// Why a position string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    /// The text is not of the expected form; the message says where.
    Syntax(String),
    /// The text is well formed but names an impossible position.
    Invalid(PositionError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::Syntax(m) => f.write_str(m),
            PositionTextError::Invalid(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for PositionTextError {}

impl From<PositionError> for PositionTextError {
    fn from(e: PositionError) -> Self {
        PositionTextError::Invalid(e)
    }
}

fn syntax<T>(message: impl Into<String>) -> Result<T, PositionTextError> {
    Err(PositionTextError::Syntax(message.into()))
}

fn parse_square(text: &str) -> Option<Square> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().and_then(Square::new)
}

impl Position {
    /// Parses a FEN as in PDN 3.0: `W:W31-50:B1-20`, `B:W18,K24:BK3,12`. The side to
    /// move comes first; each side's list may use ranges and `K` for kings. A
    /// surrounding `[FEN "..."]` tag, quotes and a final `.` are accepted.
    pub fn from_fen(text: &str) -> Result<Position, PositionTextError> {
        let mut s = text.trim();
        if let Some(inner) = s.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
            s = inner.trim();
        }
        s = s.trim_matches('"').trim().trim_end_matches('.');
        let mut fields = s.split(':');
        let side = match fields.next().map(str::trim) {
            Some("W") | Some("w") => Side::White,
            Some("B") | Some("b") => Side::Black,
            _ => {
                return syntax(format!(
                    "FEN '{text}' must start with the side to move, W or B"
                ))
            }
        };
        let mut sides = [Bitboard::EMPTY; 2];
        let mut kings = Bitboard::EMPTY;
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let (owner, list) = match field.chars().next() {
                Some('W') | Some('w') => (Side::White, &field[1..]),
                Some('B') | Some('b') => (Side::Black, &field[1..]),
                // PDN allows further fields (move counters): ignore them.
                Some('H') | Some('F') => continue,
                _ => return syntax(format!("FEN field '{field}' must start with W or B")),
            };
            if std::mem::replace(&mut seen[owner.index()], true) {
                return syntax(format!("FEN '{text}' lists {owner}'s pieces twice"));
            }
            for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (is_king, squares) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (first, last) = match squares.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (squares, squares),
                };
                let (Some(first), Some(last)) = (parse_square(first), parse_square(last)) else {
                    return syntax(format!(
                        "'{item}' in FEN is not a square 1-50 or a range of them"
                    ));
                };
                if first > last {
                    return syntax(format!("range '{item}' in FEN runs backwards"));
                }
                for n in first.number()..=last.number() {
                    let sq = Square::new(n).expect("within a range of squares");
                    if sides[0].contains(sq) || sides[1].contains(sq) {
                        return syntax(format!("square {sq} appears twice in FEN"));
                    }
                    sides[owner.index()] |= Bitboard::from_square(sq);
                    if is_king {
                        kings |= Bitboard::from_square(sq);
                    }
                }
            }
        }
        Ok(Position::new(sides[0], sides[1], kings, side)?)
    }

    /// The FEN of this position, kings marked `K`, squares listed in order.
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut out = String::from(match self.side_to_move() {
            Side::White => "W",
            Side::Black => "B",
        });
        for side in [Side::White, Side::Black] {
            out.push(':');
            out.push(if side == Side::White { 'W' } else { 'B' });
            let kings = self.kings(side);
            let list: Vec<String> = self
                .pieces(side)
                .squares()
                .map(|sq| {
                    if kings.contains(sq) {
                        format!("K{sq}")
                    } else {
                        sq.to_string()
                    }
                })
                .collect();
            out.push_str(&list.join(","));
        }
        out
    }

    /// Parses the Hub protocol's 51 characters: `W` or `B`, then squares 1-50 as
    /// `w` (white man), `b` (black man), `W`, `B` (kings) or `e` (empty).
    pub fn from_hub(text: &str) -> Result<Position, PositionTextError> {
        Position::from_board_string(text.trim(), ['W', 'B'], ['w', 'b', 'W', 'B', 'e'], "Hub")
    }

    /// The Hub protocol's 51-character position string.
    #[must_use]
    pub fn to_hub(&self) -> String {
        self.to_board_string(['W', 'B'], ['w', 'b', 'W', 'B', 'e'])
    }

    /// Parses DXP's position: `W` or `Z` to move, then squares 1-50 as `w`, `z` (men),
    /// `W`, `Z` (kings) or `e` (empty).
    pub fn from_dxp(text: &str) -> Result<Position, PositionTextError> {
        Position::from_board_string(text, ['W', 'Z'], ['w', 'z', 'W', 'Z', 'e'], "DXP")
    }

    /// DXP's 51-character position string.
    #[must_use]
    pub fn to_dxp(&self) -> String {
        self.to_board_string(['W', 'Z'], ['w', 'z', 'W', 'Z', 'e'])
    }

    fn from_board_string(
        text: &str,
        sides: [char; 2],
        pieces: [char; 5],
        name: &str,
    ) -> Result<Position, PositionTextError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 51 {
            return syntax(format!(
                "a {name} position has 51 characters (side to move, then 50 squares), not {}",
                chars.len()
            ));
        }
        let side = if chars[0] == sides[0] {
            Side::White
        } else if chars[0] == sides[1] {
            Side::Black
        } else {
            return syntax(format!(
                "a {name} position starts with {} or {}, not '{}'",
                sides[0], sides[1], chars[0]
            ));
        };
        let mut bb = [Bitboard::EMPTY; 3];
        for (sq, &c) in Square::all().zip(&chars[1..]) {
            let one = Bitboard::from_square(sq);
            match pieces.iter().position(|&p| p == c) {
                Some(0) => bb[0] |= one,
                Some(1) => bb[1] |= one,
                Some(2) => {
                    bb[0] |= one;
                    bb[2] |= one;
                }
                Some(3) => {
                    bb[1] |= one;
                    bb[2] |= one;
                }
                Some(_) => {}
                None => {
                    let allowed: String = pieces.iter().collect();
                    return syntax(format!(
                        "square {sq} of the {name} position is '{c}', not one of '{allowed}'"
                    ));
                }
            }
        }
        Ok(Position::new(bb[0], bb[1], bb[2], side)?)
    }

    fn to_board_string(self, sides: [char; 2], pieces: [char; 5]) -> String {
        let mut out = String::with_capacity(51);
        out.push(sides[self.side_to_move().index()]);
        for sq in Square::all() {
            out.push(match self.piece_at(sq) {
                Some(Piece::Man(Side::White)) => pieces[0],
                Some(Piece::Man(Side::Black)) => pieces[1],
                Some(Piece::King(Side::White)) => pieces[2],
                Some(Piece::King(Side::Black)) => pieces[3],
                None => pieces[4],
            });
        }
        out
    }

    /// The board drawn in text as printed diagrams have it, White playing up from
    /// the bottom, the square numbers beside it at the same places, a legend and
    /// the side to move. Every front end that draws a board in text uses this one.
    #[must_use]
    pub fn diagram(&self) -> String {
        let border = format!("+{}+", "-".repeat(31));
        let mut out = format!("   {border}      {border}\n");
        for row in 0..10u8 {
            let mut pieces = String::new();
            let mut numbers = String::new();
            for col in 0..10u8 {
                let Some(sq) = Square::at(row, col) else {
                    pieces.push_str("   ");
                    numbers.push_str("   ");
                    continue;
                };
                pieces.push_str(&format!("  {}", piece_symbol(self.piece_at(sq))));
                numbers.push_str(&format!(" {:>2}", sq.number()));
            }
            out.push_str(&format!("   |{pieces} |      |{numbers} |\n"));
        }
        out.push_str(&format!("   {border}      {border}\n"));
        out.push_str(&format!(
            "    o x men   O X kings   . empty      {} to move\n",
            self.side_to_move()
        ));
        out
    }
}

/// What stands on a square, as diagrams draw it: `o` and `x` White's and Black's
/// men, `O` and `X` their kings, `.` an empty square.
#[must_use]
pub fn piece_symbol(piece: Option<Piece>) -> char {
    match piece {
        Some(Piece::Man(Side::White)) => 'o',
        Some(Piece::Man(Side::Black)) => 'x',
        Some(Piece::King(Side::White)) => 'O',
        Some(Piece::King(Side::Black)) => 'X',
        None => '.',
    }
}

impl FromStr for Position {
    type Err = PositionTextError;

    /// Accepts a FEN or a Hub position string.
    fn from_str(s: &str) -> Result<Position, PositionTextError> {
        let t = s.trim();
        if t.len() == 51 && !t.contains(':') {
            Position::from_hub(t)
        } else {
            Position::from_fen(t)
        }
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// Move text before it is checked against a position.
///
/// `32-28` is a quiet move. `28x19` names a capture by its ends. `28x19x23x...`
/// is either Hub's form (from, to, then every captured square) or a PDN path
/// (from, the landing squares, to): which one is decided against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The squares in the order written.
    pub squares: Vec<Square>,
    /// Written with `x` rather than `-`.
    pub capture: bool,
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text at all.
    Syntax(String),
    /// Well formed, but no legal move matches.
    Illegal(String),
    /// Several legal moves match; they are listed in Hub form.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => f.write_str(m),
            MoveError::Illegal(t) => write!(f, "'{t}' is not a legal move here"),
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "'{text}' fits several legal moves: {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl FromStr for MoveText {
    type Err = MoveError;

    fn from_str(s: &str) -> Result<MoveText, MoveError> {
        let text = s.trim();
        let capture = text.contains(['x', 'X', ':']);
        let quiet = text.contains('-');
        if capture == quiet {
            return Err(MoveError::Syntax(format!(
                "'{text}' is not a move: write 32-28 for a move, 28x19 or 28x19x23 for a capture"
            )));
        }
        let parts: Vec<&str> = if capture {
            text.split(['x', 'X', ':']).collect()
        } else {
            text.split('-').collect()
        };
        let squares = parts
            .iter()
            .map(|p| parse_square(p.trim()))
            .collect::<Option<Vec<Square>>>()
            .ok_or_else(|| {
                MoveError::Syntax(format!(
                    "'{text}' is not a move: every part must be a square 1-50"
                ))
            })?;
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(MoveError::Syntax(format!(
                "'{text}' is not a move: it needs a from and a to square"
            )));
        }
        Ok(MoveText { squares, capture })
    }
}

impl MoveText {
    /// The legal move this text names in `pos`.
    pub fn resolve(&self, pos: &Position) -> Result<Move, MoveError> {
        let text = self.to_string();
        // The fields are public: a value built by hand may lack its two squares.
        let (Some(&from), Some(&to)) = (self.squares.first(), self.squares.get(1)) else {
            return Err(MoveError::Syntax(format!(
                "'{text}' is not a move: it needs a from and a to square"
            )));
        };
        let legal = legal_moves(pos);
        let ends: Vec<Move> = legal.iter().copied().filter(|m| m.from() == from).collect();
        let candidates: Vec<Move> = if !self.capture {
            ends.into_iter()
                .filter(|m| m.to() == to && !m.is_capture())
                .collect()
        } else if self.squares.len() == 2 {
            ends.into_iter()
                .filter(|m| m.to() == to && m.is_capture())
                .collect()
        } else {
            // Hub's form lists the captured squares; a PDN path lists landing squares.
            let captured = Bitboard::from_squares(self.squares[2..].iter().copied());
            let hub: Vec<Move> = ends
                .iter()
                .copied()
                .filter(|m| {
                    m.to() == to
                        && m.captured() == captured
                        && m.captured().count() as usize == self.squares.len() - 2
                })
                .collect();
            if hub.is_empty() {
                let last = *self.squares.last().expect("at least two squares");
                ends.into_iter()
                    .filter(|m| {
                        m.to() == last
                            && m.is_capture()
                            // Any of the move's paths may be the one written (a man
                            // circling four pieces goes either way round).
                            && find_path(pos, *m, &mut |p| path_fits(p, &self.squares)).is_some()
                    })
                    .collect()
            } else {
                hub
            }
        };
        match candidates.as_slice() {
            [] => Err(MoveError::Illegal(text)),
            [one] => Ok(*one),
            many => Err(MoveError::Ambiguous {
                text,
                candidates: many.iter().map(|m| hub_move(*m)).collect(),
            }),
        }
    }
}

/// Whether a written PDN path (from, some landing squares, to) fits a full path.
fn path_fits(path: &[Square], written: &[Square]) -> bool {
    let mut rest = path.iter();
    written.iter().all(|w| rest.any(|p| p == w)) && path.last() == written.last()
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        let parts: Vec<String> = self.squares.iter().map(|s| s.to_string()).collect();
        f.write_str(&parts.join(sep))
    }
}

/// Parses and resolves move text in one step.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    text.parse::<MoveText>()?.resolve(pos)
}

/// Hub's move text: `32-28`, or `28x19x23` (from, to, every captured square in
/// increasing order).
#[must_use]
pub fn hub_move(mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut out = format!("{}x{}", mv.from(), mv.to());
    for sq in mv.captured().squares() {
        out.push_str(&format!("x{sq}"));
    }
    out
}

/// PDN move text: `32-28` or `28x19`; when another legal capture has the same ends,
/// the landing squares are written too (`26x37x48x30`) so the text names one move.
#[must_use]
pub fn pdn_move(pos: &Position, mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let twins = legal_moves(pos)
        .iter()
        .filter(|m| m.from() == mv.from() && m.to() == mv.to())
        .count();
    match capture_path(pos, mv) {
        Some(path) if twins > 1 => path
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("x"),
        _ => format!("{}x{}", mv.from(), mv.to()),
    }
}

/// One path of a capture through its landing squares (start and end included), if
/// the move is a capture of the side to move in `pos`.
#[must_use]
pub fn capture_path(pos: &Position, mv: Move) -> Option<Vec<Square>> {
    find_path(pos, mv, &mut |_| true)
}

/// The first path of a capture (start and end included) that `accept` takes.
fn find_path(
    pos: &Position,
    mv: Move,
    accept: &mut dyn FnMut(&[Square]) -> bool,
) -> Option<Vec<Square>> {
    let side = pos.side_to_move();
    let from = 1u64 << mv.from_bit();
    let us = pos.side_bits(side);
    if us & from == 0 || !mv.is_capture() {
        return None;
    }
    let is_king = pos.king_bits() & from != 0;
    let empty = pos.empty().0 | from;
    let mut path = vec![mv.from_bit()];
    if walk(
        from,
        mv.captured_bits(),
        0,
        is_king,
        empty,
        mv.to_bit(),
        &mut path,
        &mut |bits: &[u32]| {
            let squares: Vec<Square> = bits.iter().filter_map(|&b| Square::from_bit(b)).collect();
            accept(&squares)
        },
    ) {
        Some(path.into_iter().filter_map(Square::from_bit).collect())
    } else {
        None
    }
}

/// Depth-first search for a jump sequence taking exactly `target`, ending on `to` and
/// taken by `accept`.
#[allow(clippy::too_many_arguments)]
fn walk(
    at: u64,
    target: u64,
    taken: u64,
    king: bool,
    empty: u64,
    to: u32,
    path: &mut Vec<u32>,
    accept: &mut dyn FnMut(&[u32]) -> bool,
) -> bool {
    if taken == target {
        return at.trailing_zeros() == to && accept(path);
    }
    for dir in 0..4 {
        let step = |b: u64| match dir {
            0 => b << 5,
            1 => b << 6,
            2 => b >> 5,
            _ => b >> 6,
        };
        let mut over = step(at);
        if king {
            while over & empty != 0 {
                over = step(over);
            }
        }
        if over & target & !taken == 0 {
            continue;
        }
        let mut land = step(over) & empty;
        while land != 0 {
            path.push(land.trailing_zeros());
            if walk(land, target, taken | over, king, empty, to, path, accept) {
                return true;
            }
            path.pop();
            land = if king { step(land) & empty } else { 0 };
        }
    }
    false
}

/// The squares of a bitboard as text, for messages.
#[must_use]
pub fn squares_text(bits: Bitboard) -> String {
    BitIter(bits.0)
        .filter_map(Square::from_bit)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_shows_pieces_numbers_and_the_side_to_move() {
        let text = Position::initial().diagram();
        assert_eq!(text.matches('x').count(), 20 + 1); // and the legend's
        assert!(text.contains("|     1     2") && text.contains("49    50    |"));
        assert!(text.ends_with("White to move\n"), "{text}");
    }
}
