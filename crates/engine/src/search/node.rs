//! What one node of the tree knows: its position and bounds, its depth and ply,
//! the decisions taken before its move loop ([`Node`]), and the scratch of its
//! ply on the search stack ([`Frame`]), with the move played from it ([`Played`]).

use super::score::Score;
use super::tt::Entry;
use kroon_rules::board::draw::DrawClock;
use kroon_rules::board::{Move, Position, Side};

/// The deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 128;

/// What the moves of one node are searched with: the node itself and the decisions
/// taken before its move loop. A split point hands it to the threads that help.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub pos: Position,
    pub clock: DrawClock,
    pub beta: Score,
    pub depth: i32,
    pub ply: usize,
    /// The children's depth (an extension included).
    pub new_depth: i32,
    pub pv_node: bool,
    /// Probcut may be tried below (not inside its own verification searches).
    pub prune: bool,
    /// The moves are captures.
    pub capture: bool,
    /// Quiet moves that threaten nothing cannot lift the score to alpha.
    pub futile: bool,
    /// Quiet moves from this number on are pruned unless they threaten a capture.
    pub lmp_limit: usize,
    /// Quiet moves whose ordering score (their summed history) is below this are
    /// pruned unless they threaten a capture (`i32::MIN`: none is).
    pub history_floor: i32,
    /// What the transposition table held for this node, if anything.
    pub tt: Option<Entry>,
}

/// Per-ply scratch: the generated moves and their ordering keys.
pub(super) struct Frame {
    pub moves: Vec<Move>,
    /// The move being searched at this ply: the move before the node a ply below.
    pub played: Option<Played>,
    pub order: Vec<i64>,
    pub pv: Vec<Move>,
}

impl Frame {
    /// An empty frame, its lists long enough for most nodes.
    pub fn new() -> Frame {
        Frame {
            moves: Vec::with_capacity(64),
            played: None,
            order: Vec::with_capacity(64),
            pv: Vec::with_capacity(32),
        }
    }
}

/// A move as the one before a node: where it went, and whether a king made it.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    pub to_bit: u32,
    pub king: bool,
    pub side: Side,
}

impl Played {
    /// `mv`, played in `pos`.
    #[inline]
    #[must_use]
    pub fn new(pos: &Position, mv: Move) -> Played {
        Played {
            to_bit: mv.to_bit(),
            king: moves_a_king(pos, mv),
            side: pos.side_to_move(),
        }
    }
}

/// Whether `mv` in `pos` is a king's move.
#[inline]
#[must_use]
pub fn moves_a_king(pos: &Position, mv: Move) -> bool {
    pos.kings(pos.side_to_move()).0 >> mv.from_bit() & 1 != 0
}
