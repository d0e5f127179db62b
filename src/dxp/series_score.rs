//! The running score of a DXP series, kept across games and connections.

use crate::play::Tally;

/// The running score of the series, from Kroon's view, and the games that ended
/// without a result.
#[derive(Default, Debug)]
pub(super) struct SeriesScore {
    pub(super) tally: Tally,
    pub(super) unfinished: u32,
}

impl SeriesScore {
    pub(super) fn games(&self) -> u32 {
        self.tally.games() + self.unfinished
    }
}
