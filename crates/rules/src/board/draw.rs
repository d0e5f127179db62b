//! The FMJD draw rules as counters carried from ply to ply: the 25-move rule (only
//! kings moved, nothing captured), the 16- and 5-move rules of the endings with a
//! lone king, and the scan for a threefold repetition. The game record and the
//! search both use them, so the referee and the search see the same draws.

use super::{Key, Move, Position, Side};
use std::fmt;

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move for the third time.
    Repetition,
    /// 25 moves by each player with only kings moved and nothing captured.
    TwentyFiveMoves,
    /// 16 moves each in an ending of three pieces (at least one a king) against a lone king.
    SixteenMoves,
    /// 5 moves each in an ending of at most two kings (or a king and a man) against a lone king.
    FiveMoves,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::TwentyFiveMoves => "25-move rule",
            DrawReason::SixteenMoves => "16-move rule",
            DrawReason::FiveMoves => "5-move rule",
        })
    }
}

/// Plies under 25 moves each: the 25-move rule.
const KING_MOVE_PLIES: u16 = 50;
const SIXTEEN_MOVE_PLIES: u16 = 32;
const FIVE_MOVE_PLIES: u16 = 10;

/// The endings with a move limit of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
enum Ending {
    #[default]
    None,
    Sixteen,
    Five,
}

/// A material signature: men and kings of each side.
type Material = [u32; 4];

fn material(pos: &Position) -> Material {
    [
        pos.men(Side::White).count(),
        pos.kings(Side::White).count(),
        pos.men(Side::Black).count(),
        pos.kings(Side::Black).count(),
    ]
}

fn ending(m: Material) -> Ending {
    let (white, black) = ((m[0], m[1]), (m[2], m[3]));
    let lone_king = (0, 1);
    let other = if black == lone_king {
        white
    } else if white == lone_king {
        black
    } else {
        return Ending::None;
    };
    match other {
        (0, 2) | (1, 1) | (0, 1) => Ending::Five,
        (0, 3) | (1, 2) | (2, 1) => Ending::Sixteen,
        _ => Ending::None,
    }
}

/// The counters behind the 25-, 16- and 5-move rules, carried from ply to ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct DrawClock {
    /// Plies since the last man move or capture (only kings moved since).
    king_plies: u16,
    /// Plies played in the current limited ending.
    ending_plies: u16,
    ending: Ending,
    material: Material,
}

impl DrawClock {
    /// The clock of a game starting from `pos`.
    #[must_use]
    pub fn start(pos: &Position) -> DrawClock {
        let material = material(pos);
        DrawClock {
            king_plies: 0,
            ending_plies: 0,
            ending: ending(material),
            material,
        }
    }

    /// The clock after `mv` was played from `before`, giving `after`.
    #[must_use]
    #[inline]
    pub fn after(self, before: &Position, mv: Move, after: &Position) -> DrawClock {
        // Raw bits, not squares: the search calls this at every node.
        let side = before.side_to_move();
        let king_move = before.kings(side).0 & (1 << mv.from_bit()) != 0;
        let reversible = king_move && !mv.is_capture();
        let king_plies = if reversible {
            self.king_plies.saturating_add(1)
        } else {
            0
        };
        // Material only changes by a capture or a promotion.
        let promotes = !king_move && after.kings(side).0 & (1 << mv.to_bit()) != 0;
        if !mv.is_capture() && !promotes {
            let ending_plies = if self.ending == Ending::None {
                0
            } else {
                self.ending_plies.saturating_add(1)
            };
            return DrawClock {
                king_plies,
                ending_plies,
                ..self
            };
        }
        let material = material(after);
        DrawClock {
            king_plies,
            ending_plies: 0,
            ending: ending(material),
            material,
        }
    }

    /// The draw by the 25-, 16- or 5-move rule, if one has happened.
    #[must_use]
    #[inline]
    pub fn draw(&self) -> Option<DrawReason> {
        match self.ending {
            Ending::Five if self.ending_plies >= FIVE_MOVE_PLIES => {
                return Some(DrawReason::FiveMoves)
            }
            Ending::Sixteen if self.ending_plies >= SIXTEEN_MOVE_PLIES => {
                return Some(DrawReason::SixteenMoves)
            }
            _ => {}
        }
        (self.king_plies >= KING_MOVE_PLIES).then_some(DrawReason::TwentyFiveMoves)
    }

    /// Plies since the last man move or capture: how far back a repetition can reach.
    #[must_use]
    #[inline]
    pub fn reversible_plies(&self) -> u32 {
        u32::from(self.king_plies)
    }

    /// Plies played with only kings moving and nothing captured (the 25-move rule's count).
    #[must_use]
    pub fn king_move_plies(&self) -> u32 {
        u32::from(self.king_plies)
    }

    /// The 16- or 5-move rule in force (in an ending against a lone king), with the
    /// plies played under it and the plies it allows: a board shows them counting.
    #[must_use]
    pub fn ending_rule(&self) -> Option<(DrawReason, u32, u32)> {
        let (rule, limit) = match self.ending {
            Ending::None => return None,
            Ending::Sixteen => (DrawReason::SixteenMoves, SIXTEEN_MOVE_PLIES),
            Ending::Five => (DrawReason::FiveMoves, FIVE_MOVE_PLIES),
        };
        Some((rule, u32::from(self.ending_plies), u32::from(limit)))
    }
}

/// The keys of the earlier positions that the last of `keys` could repeat: those
/// with the same side to move at most `reversible_plies` plies back (before that, a
/// man moved or a piece was taken, which cannot be undone), the nearest first.
#[inline]
fn repeatable(keys: &[Key], reversible_plies: u32) -> impl Iterator<Item = &Key> {
    let earlier = keys.len().saturating_sub(1);
    let reach = (reversible_plies as usize).min(earlier);
    keys[earlier - reach..earlier]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
}

/// How often the last key of `keys` occurs among the positions it could repeat
/// (itself included): three times is a draw.
#[must_use]
pub fn repetitions(keys: &[Key], reversible_plies: u32) -> usize {
    let Some(&current) = keys.last() else {
        return 0;
    };
    1 + repeatable(keys, reversible_plies)
        .filter(|&&k| k == current)
        .count()
}

/// Whether the last key of `keys` occurred before among the positions it could
/// repeat. The search scores a position repeated once as a draw: if repeating it
/// was good for one side it will repeat it again.
#[must_use]
#[inline]
pub fn is_repeated(keys: &[Key], reversible_plies: u32) -> bool {
    let Some(&current) = keys.last() else {
        return false;
    };
    repeatable(keys, reversible_plies).any(|&k| k == current)
}
