//! What a match has played: each finished game's record, the engines' results and
//! clock use, the summary and SPRT state, and their text (the PDN of a game, the
//! progress and final lines).

use super::elo::{Pairs, Sprt, SprtVerdict};
use super::resume::EarlierGame;
use super::schedule::{Job, MatchConfig};
use crate::board::Side;
use crate::game::Game;
use crate::pdn;
use crate::play::Outcome;
use crate::play::Tally;
use std::time::Duration;

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub job: Job,
    pub game: Game,
    pub outcome: Outcome,
    /// Why it ended, in words that name the engines (the PDN Termination tag).
    pub termination: String,
    /// The time each side spent on its moves, by `Side::index`.
    pub time_used: [Duration; 2],
    /// Each side's clock at the end, by `Side::index` (None: no game clock).
    pub clock_left: Option<[Duration; 2]>,
    /// Each move's PDN comment (the mover's score and depth, its time).
    pub comments: Vec<String>,
}

impl GameRecord {
    /// Whether an engine lost by forfeit (crash, hang, illegal move, time).
    #[must_use]
    pub fn is_forfeit(&self) -> bool {
        matches!(self.outcome.reason, crate::play::Reason::Forfeit(_))
    }
}

/// Per-engine results.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    pub tally: Vec<Tally>,
    /// Per engine: how it used its clock.
    pub time: Vec<TimeUse>,
}

/// How an engine used its time over the games of a match: whether it leaves
/// time unused on the clock that a stronger move could have had.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeUse {
    pub games: u32,
    pub used: Duration,
    /// Over the games played with a clock.
    pub clocked_games: u32,
    pub left: Duration,
    /// The least time it had left at the end of a game.
    pub least_left: Option<Duration>,
}

impl TimeUse {
    fn add(&mut self, used: Duration, left: Option<Duration>) {
        self.games += 1;
        self.used += used;
        if let Some(left) = left {
            self.clocked_games += 1;
            self.left += left;
            self.least_left = Some(self.least_left.map_or(left, |l| l.min(left)));
        }
    }

    /// `used 31.2 s a game, left 20.4 s (least 3.1 s)`, or None before a game.
    #[must_use]
    pub fn summary(&self) -> Option<String> {
        if self.games == 0 {
            return None;
        }
        let mut text = format!(
            "used {:.1} s a game",
            self.used.as_secs_f64() / f64::from(self.games)
        );
        if let (Some(least), n) = (self.least_left, self.clocked_games) {
            text.push_str(&format!(
                ", clock left at the end {:.1} s a game (least {:.1} s)",
                self.left.as_secs_f64() / f64::from(n),
                least.as_secs_f64()
            ));
        }
        Some(text)
    }
}

impl Standings {
    pub(super) fn new(engines: usize) -> Standings {
        Standings {
            tally: vec![Tally::default(); engines],
            time: vec![TimeUse::default(); engines],
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.add_result(record.job, record.outcome.winner);
        let job = record.job;
        for (side, engine) in [(Side::White, job.white), (Side::Black, job.black)] {
            let left = record.clock_left.map(|l| l[side.index()]);
            self.time[engine].add(record.time_used[side.index()], left);
        }
    }

    /// Counts a game's result alone: a game of an earlier run read back from its
    /// PDN file, whose clock use the file does not keep.
    pub fn add_result(&mut self, job: Job, winner: Option<Side>) {
        for (side, engine) in [(Side::White, job.white), (Side::Black, job.black)] {
            self.tally[engine].add(crate::wdl::Wdl::for_side(winner, side));
        }
    }

    /// The final table, one line per engine.
    #[must_use]
    pub fn table(&self, names: &[String]) -> String {
        let width = names.iter().map(String::len).max().unwrap_or(6).max(6);
        let mut out = format!(
            "{:<width$} {:>5} {:>5} {:>5} {:>5} {:>7} {:>8} {:>17} {:>6}\n",
            "engine", "games", "wins", "draws", "losses", "score", "elo", "95% interval", "LOS"
        );
        for (name, wdl) in names.iter().zip(&self.tally) {
            let pct = wdl
                .score()
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
            let elo = wdl.elo().map_or("-".into(), elo_text);
            let interval = wdl.elo_interval().map_or("-".into(), interval_text);
            let los = wdl
                .los()
                .map_or("-".into(), |l| format!("{:.1}%", 100.0 * l));
            out.push_str(&format!(
                "{name:<width$} {:>5} {:>5} {:>5} {:>5} {pct:>7} {elo:>8} {interval:>17} {los:>6}\n",
                wdl.games(),
                wdl.wins,
                wdl.draws,
                wdl.losses
            ));
        }
        out
    }
}

/// The PDN text of a finished game, with the blank line that separates it from
/// the next game in the file.
#[must_use]
pub fn record_pdn(config: &MatchConfig, record: &GameRecord, date: &str) -> String {
    let job = record.job;
    let mut tags: pdn::Tags = vec![
        ("Event".into(), config.event.clone()),
        ("Date".into(), date.into()),
        ("Round".into(), job.number.to_string()),
        ("White".into(), config.engines[job.white].name.clone()),
        ("Black".into(), config.engines[job.black].name.clone()),
        ("Result".into(), record.outcome.pdn().into()),
        ("FEN".into(), config.openings[job.opening].to_fen()),
    ];
    // Under time odds each side's clock, as other match runners tag it.
    let (white_tc, black_tc) = (config.tc_of(job.white), config.tc_of(job.black));
    if white_tc == black_tc {
        tags.push(("TimeControl".into(), white_tc.to_string()));
    } else {
        tags.push(("WhiteTimeControl".into(), white_tc.to_string()));
        tags.push(("BlackTimeControl".into(), black_tc.to_string()));
    }
    tags.push(("Termination".into(), record.termination.clone()));
    // Each side's clock when the game ended: how much time an engine leaves unused.
    if let Some(left) = record.clock_left {
        for side in [Side::White, Side::Black] {
            let name = format!("{side}Clock");
            tags.push((name, format!("{:.1}", left[side.index()].as_secs_f64())));
        }
    }
    let result = record.outcome.pdn();
    let mut text = pdn::write_annotated(
        &tags,
        &record.game,
        &record.comments,
        result,
        pdn::Layout::Wrapped,
    );
    text.push('\n');
    text
}

pub(super) fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub standings: Standings,
    pub games: usize,
    /// Of `games`, those an earlier run played (`--resume`).
    pub resumed: usize,
    pub forfeits: Vec<String>,
    /// The sequential test's LLR and verdict, and the games it was taken on: once
    /// decided, it stays as decided (see `MatchSummary::test`).
    pub sprt: Option<SprtState>,
    /// The first engine's finished game pairs (an opening's two games), which the
    /// test is taken on, and the first engine's points in each game whose pair
    /// is not finished yet, by pair.
    pub pairs: Pairs,
    pub(super) unpaired: std::collections::HashMap<usize, f64>,
}

/// Where the sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub verdict: SprtVerdict,
    /// The games counted when the LLR was taken.
    pub games: usize,
    /// Of those, the ones in finished pairs: the test's own.
    pub paired: usize,
}

impl MatchSummary {
    /// Nothing played yet between `engines` engines.
    pub(super) fn new(engines: usize) -> MatchSummary {
        MatchSummary {
            standings: Standings::new(engines),
            games: 0,
            resumed: 0,
            forfeits: Vec::new(),
            sprt: None,
            pairs: Pairs::default(),
            unpaired: std::collections::HashMap::new(),
        }
    }

    /// Counts a finished game.
    pub(super) fn count(&mut self, record: &GameRecord) {
        self.games += 1;
        self.standings.add(record);
        self.pair(record.job, record.outcome.winner);
        if record.is_forfeit() {
            self.note_forfeit(record.job, &record.termination);
        }
    }

    /// Counts a game an earlier run of the match played (`--resume`): in the
    /// table, the pairs and the test, but not in the clock use.
    pub(super) fn count_earlier(&mut self, game: &EarlierGame) {
        self.games += 1;
        self.resumed += 1;
        self.standings.add_result(game.job, game.winner);
        self.pair(game.job, game.winner);
        if game.forfeit {
            self.note_forfeit(game.job, &game.termination);
        }
    }

    fn note_forfeit(&mut self, job: Job, termination: &str) {
        self.forfeits
            .push(format!("game {}: {termination}", job.number));
    }

    /// Files a game of a two-engine match under its pair: games 1 and 2 are the
    /// first opening's with colours reversed, 3 and 4 the second's, and so on
    /// (see [`schedule`]).
    fn pair(&mut self, job: Job, winner: Option<Side>) {
        if self.standings.tally.len() != 2 {
            return;
        }
        let first_side = if job.white == 0 {
            Side::White
        } else {
            Side::Black
        };
        let points = crate::wdl::Wdl::for_side(winner, first_side).points();
        let points = f64::from(points);
        let pair = (job.number - 1) / 2;
        match self.unpaired.remove(&pair) {
            Some(other) => self.pairs.add(other, points),
            None => {
                self.unpaired.insert(pair, points);
            }
        }
    }

    /// The sequential test's verdict on the first engine's results so far (it
    /// goes on until the results say something). A verdict, once reached, is the
    /// test's answer: the games still in play when it came (up to one a worker)
    /// finish and are counted in the table, but they do not reopen the test. A
    /// sequential test stops at its first crossing; letting them move the LLR back
    /// inside the bounds would print "undecided" for a test that decided.
    pub(super) fn test(&mut self, sprt: &Sprt) -> SprtVerdict {
        if let Some(state) = self.sprt.filter(|s| s.verdict != SprtVerdict::Continue) {
            return state.verdict;
        }
        let Some(llr) = sprt.llr_pairs(&self.pairs) else {
            return SprtVerdict::Continue;
        };
        let verdict = sprt.verdict(Some(llr));
        self.sprt = Some(SprtState {
            llr,
            verdict,
            games: self.games,
            paired: 2 * self.pairs.pairs() as usize,
        });
        verdict
    }
}

/// The first engine's result taken on opening pairs, as the SPRT takes it: the
/// table's interval counts the games as independent, which a match of opening
/// pairs is not (see [`elo`]). None before the first pair (and in a match of more
/// than two engines, which has no pairs).
pub(super) fn pairs_line(first: &str, pairs: &Pairs) -> Option<String> {
    let interval = interval_text(pairs.elo_interval()?);
    let elo = elo_text(super::elo::elo_of_score(pairs.score()?));
    let [p0, p1, p2, p3, p4] = pairs.counts;
    Some(format!(
        "by opening pairs: {first} {elo} Elo, 95% {interval}; {} pairs scoring \
         0, 1, 2, 3, 4 of 4 points: {p0}, {p1}, {p2}, {p3}, {p4}",
        pairs.pairs()
    ))
}

// Adding 0.0 turns -0.0 (an even score seen from the loser's side) into 0.0.
fn elo_text(elo: f64) -> String {
    format!("{:+.1}", elo + 0.0)
}

fn interval_text((lo, hi): (f64, f64)) -> String {
    format!("[{:+.0}, {:+.0}]", lo + 0.0, hi + 0.0)
}

/// The test's last line: its LLR and verdict, and when it decided before the
/// last game, after how many games.
pub(super) fn sprt_line(sprt: &Sprt, state: &SprtState, games: usize) -> String {
    let (lo, hi) = sprt.bounds();
    let verdict = match state.verdict {
        SprtVerdict::H1 => "H1 accepted",
        SprtVerdict::H0 => "H0 accepted",
        SprtVerdict::Continue => "undecided",
    };
    let when = if state.games < games {
        format!(" after {} games", state.games)
    } else {
        String::new()
    };
    // The test counts finished pairs only: the games still in play when it
    // decided, and a game whose twin was, are in the table but not in the test.
    let outside = games - state.paired;
    let pairs = state.paired / 2;
    let note = if outside > 0 {
        format!(
            " ({pairs} opening pairs; the {outside} other games are in the table, not in the test)"
        )
    } else {
        format!(" ({pairs} opening pairs)")
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{lo:.2}, {hi:.2}] {verdict}{when}{note}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, state.llr
    )
}
