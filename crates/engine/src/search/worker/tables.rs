//! The endgame tables inside the tree: what a node of few enough pieces learns
//! from them (a draw settles it, a win or a loss bounds its score), and the score
//! a won position gets so that the search still makes progress towards the win.

use crate::egdb::{Tables, Wdl};
use crate::search::score::Score;
use kroon_rules::board::{Position, Side};

/// A position the tables say is won scores this much, plus its progress (see
/// [`table_win`]): above every evaluation of a real game (50 men), below every win
/// the search proves, and below the 90-odd men by which Hub clients (Scan's
/// convention, see [`Score::men`]) recognise a proven win.
const TABLE_WIN: i32 = Score::TABLE_WIN.0;

/// The score of a position the tables say the side to move wins. The tables cannot
/// tell a short win from a long one; the search must still convert it within the
/// draw rules, so the score grows with progress: the loser's pieces gone, the
/// winner's men crowned or nearer the crowning row. A won line that makes progress
/// then scores above one that marks time, and a real win found by the search above
/// both.
fn table_win(pos: &Position) -> Score {
    let us = pos.side_to_move();
    let them = us.opponent();
    let lost = 20 - pos.pieces(them).count() as i32;
    let kings = pos.kings(us).count() as i32;
    let advance: i32 = pos
        .men(us)
        .squares()
        .map(|sq| match us {
            Side::White => 9 - i32::from(sq.row()),
            Side::Black => i32::from(sq.row()),
        })
        .sum();
    Score(TABLE_WIN + 50 * lost + 30 * kings + 3 * advance)
}

/// The tables a worker probes, and up to how many pieces.
#[derive(Clone, Copy, Default)]
pub(super) struct TableProbe<'a> {
    /// None when there are no tables, or they are not to be probed.
    tables: Option<&'a Tables>,
    pieces: u32,
}

impl<'a> TableProbe<'a> {
    /// Probes `tables` at nodes of up to `pieces` pieces (none below 2).
    pub fn new(tables: Option<&'a Tables>, pieces: u32) -> TableProbe<'a> {
        TableProbe {
            tables: tables.filter(|_| pieces >= 2),
            pieces,
        }
    }

    /// What the tables say of a node: `Err` with its score when that settles it (a
    /// draw; a win or loss at the horizon, or beyond the window), else the floor
    /// and ceiling its score is held within. A won node's floor is [`table_win`]:
    /// the window narrows to above it, and the search goes on inside for a real win
    /// or more progress.
    #[inline]
    pub fn probe(
        &self,
        pos: &Position,
        depth: i32,
        alpha: &mut Score,
        beta: &mut Score,
    ) -> Result<(Score, Score), Score> {
        let open = Ok((-Score::INFINITE, Score::INFINITE));
        let Some(tables) = self.tables else {
            return open;
        };
        // A side without pieces has lost: the search scores that as a real win.
        if pos.occupied().count() > self.pieces || pos.pieces(pos.side_to_move()).is_empty() {
            return open;
        }
        match tables.probe(pos) {
            None => open,
            Some(Wdl::Draw) => Err(Score::DRAW),
            Some(Wdl::Win) => {
                let floor = table_win(pos);
                if floor >= *beta || depth <= 0 {
                    return Err(floor);
                }
                *alpha = (*alpha).max(floor);
                Ok((floor, Score::INFINITE))
            }
            Some(Wdl::Loss) => {
                let ceiling = -table_win(&pos.with_side_to_move(pos.side_to_move().opponent()));
                if ceiling <= *alpha || depth <= 0 {
                    return Err(ceiling);
                }
                *beta = (*beta).min(ceiling);
                Ok((-Score::INFINITE, ceiling))
            }
        }
    }
}
