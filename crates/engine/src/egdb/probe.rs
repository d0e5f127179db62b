//! `kroon egdb probe`: a value for each position read, one a line.

use super::Tables;
use kroon_rules::board::Position;
use std::io::{BufRead, Write};

/// Reads positions (FEN or Hub strings), one a line, and writes each line followed by
/// one space and `win`, `draw` or `loss` for the side to move, or `unknown` when the
/// tables do not hold it. A line that is no position is written with `error: ` and
/// the reason instead, and the rest is still read. Blank lines are skipped.
pub fn run(tables: &Tables, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match text.parse::<Position>() {
            Ok(pos) => match tables.probe(&pos) {
                Some(value) => writeln!(output, "{text} {value}")?,
                None => writeln!(output, "{text} unknown")?,
            },
            Err(e) => writeln!(output, "{text} error: {e}")?,
        }
    }
    output.flush()
}
