//! Where text mode's text goes, and how it writes what the search reports: scores
//! from White's view, lines of moves in PDN, clocks.

use crate::board::movegen::legal_moves;
use crate::board::notation::pdn_move;
use crate::board::{Move, Position, Side};
use crate::engine::{Info, Score};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where text goes: the command loop and the search thread's progress lines share it.
#[derive(Clone)]
pub(super) struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Text to `sink`, whichever thread writes it.
    pub(super) fn new(sink: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(sink))))
    }

    pub(super) fn write(&self, text: &str) {
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // A closed terminal or pipe will show as the end of input; nothing to do here.
        let _ = w.write_all(text.as_bytes());
        let _ = w.flush();
    }

    pub(super) fn line(&self, text: &str) {
        self.write(&format!("{text}\n"));
    }
}

/// A score from White's view, in men, or the forced win or loss in moves.
fn score_text(white_view: Score) -> String {
    match white_view.decisive_plies() {
        Some(p) if p >= 0 => format!("White wins in {}", (p + 1) / 2),
        Some(p) => format!("Black wins in {}", (1 - p) / 2),
        None => format!("{:+.2}", white_view.men()),
    }
}

/// Moves in PDN, played on from `pos`; an illegal move (never expected) ends the line.
fn line_text(pos: &Position, moves: &[Move]) -> String {
    let mut pos = *pos;
    let mut out = Vec::new();
    for &mv in moves {
        if !legal_moves(&pos).contains(&mv) {
            break;
        }
        out.push(pdn_move(&pos, mv));
        pos = pos.play(mv);
    }
    out.join(" ")
}

fn white_view(score: Score, side: Side) -> Score {
    match side {
        Side::White => score,
        Side::Black => -score,
    }
}

pub(super) fn info_line(root: &Position, info: &Info) -> String {
    if info.from_book {
        return format!(
            "  book move  score {:>8}  line {}",
            score_text(white_view(info.score, root.side_to_move())),
            line_text(root, &info.pv)
        );
    }
    format!(
        "  depth {:>2}  score {:>8}  nodes {:>10}  time {:>6.2} s  pv {}",
        info.depth,
        score_text(white_view(info.score, root.side_to_move())),
        info.nodes,
        info.time.as_secs_f64(),
        line_text(root, &info.pv)
    )
}

/// `m:ss`, or `s.t` under ten seconds, where the tenths matter.
pub(super) fn clock_text(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 10 {
        format!("{}.{}", secs, d.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}
