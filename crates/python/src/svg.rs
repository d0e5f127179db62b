//! The board as an SVG image, for notebooks (`Board._repr_svg_`) and web pages.

use kroon_rules::board::{Move, Piece, Position, Side, Square};
use std::fmt::Write as _;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const MARK: &str = "#cdd26a";

/// The board `size` pixels wide, square numbers in the dark squares' corners,
/// kings with a ring, the last move's squares marked.
pub fn draw(pos: &Position, last: Option<Move>, size: u32, flipped: bool) -> String {
    let size = size.max(50);
    let cell = f64::from(size) / 10.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{size}\" height=\"{size}\" fill=\"{LIGHT}\"/>"
    );
    let marked = last.map(|m| [m.from(), m.to()]);
    for sq in Square::all() {
        let (row, col) = if flipped {
            (9 - sq.row(), 9 - sq.column())
        } else {
            (sq.row(), sq.column())
        };
        let (x, y) = (f64::from(col) * cell, f64::from(row) * cell);
        let fill = if marked.is_some_and(|m| m.contains(&sq)) {
            MARK
        } else {
            DARK
        };
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" fill=\"{fill}\"/>"
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" fill=\"#eee\" font-family=\"sans-serif\">{}</text>",
            x + cell * 0.06,
            y + cell * 0.28,
            cell * 0.22,
            sq.number()
        );
        if let Some(piece) = pos.piece_at(sq) {
            piece_svg(&mut out, piece, x + cell / 2.0, y + cell / 2.0, cell);
        }
    }
    out.push_str("</svg>\n");
    out
}

fn piece_svg(out: &mut String, piece: Piece, cx: f64, cy: f64, cell: f64) {
    let (fill, stroke) = match piece.side() {
        Side::White => ("#fafafa", "#333"),
        Side::Black => ("#222", "#ccc"),
    };
    let _ = writeln!(
        out,
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{:.1}\"/>",
        cell * 0.4,
        cell * 0.04
    );
    if piece.is_king() {
        let _ = writeln!(
            out,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#d4a017\" stroke-width=\"{:.1}\"/>",
            cell * 0.22,
            cell * 0.07
        );
    }
}
