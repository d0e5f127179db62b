//! A match taken up again (`kroon match --resume`): the games an earlier run of the
//! same match wrote to its PDN file are read back, checked against the schedule,
//! counted in the table, the opening pairs and the SPRT, and not played again. A
//! long SPRT stopped by a reboot, a killed session or Ctrl-C then goes on where it
//! stopped instead of starting over or being summed by hand.

use super::schedule::{Job, MatchConfig};
use crate::board::Side;
use crate::pdn;
use std::path::Path;

/// A game of an earlier run, as far as the table and the test need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlierGame {
    pub job: Job,
    /// None: a draw.
    pub winner: Option<Side>,
    /// The PDN Termination tag.
    pub termination: String,
    /// Whether the loser lost by forfeit (crash, hang, illegal move, time).
    pub forfeit: bool,
}

/// What an earlier run left in the PDN file.
#[derive(Debug, Default)]
pub struct Earlier {
    /// Its finished games, in the order the file has them (the order they finished).
    pub games: Vec<EarlierGame>,
    /// Where the file is cut when the run was stopped while writing its last game:
    /// that game's text goes, and the game is played again.
    pub cut_at: Option<u64>,
}

/// Reads the games an earlier run of `config`'s match wrote to `path`, each checked
/// against `jobs` (the match's schedule): its Round tag must name a game of the
/// schedule, once, with the same engines in the same colours and the same opening.
/// A file from another match (other engines, openings, order or seed) is an error
/// that says what differs, so that two matches are never summed by mistake.
pub fn read(path: &Path, config: &MatchConfig, jobs: &[Job]) -> Result<Earlier, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: not a text file (not UTF-8)", path.display()))?;
    parse(&text, config, jobs).map_err(|m| format!("{}: {m}", path.display()))
}

fn parse(text: &str, config: &MatchConfig, jobs: &[Job]) -> Result<Earlier, String> {
    if text.trim().is_empty() {
        return Ok(Earlier::default());
    }
    let starts = game_starts(text);
    if starts.first() != Some(&0) {
        return Err("not a PDN file of `kroon match` (each game starts with its Event tag)".into());
    }
    let mut earlier = Earlier::default();
    let mut seen = vec![false; jobs.len()];
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        if i + 1 == starts.len() && !written_to_the_end(chunk) {
            // Stopped while writing it (killed, or a full disk): the game is played
            // again. What it has of its tags must still be this match's, so that the
            // file of another match is refused, not cut.
            let whole_lines = &chunk[..chunk.rfind('\n').map_or(0, |n| n + 1)];
            let game = match pdn::parse_first_game(whole_lines) {
                Ok(game) => game,
                Err(pdn::PdnError::NoGame) => pdn::ParsedGame::default(),
                Err(e) => return Err(format!("game {} in the file: {e}", i + 1)),
            };
            scheduled_job(&game, config, jobs)
                .map_err(|m| format!("game {} in the file: {m}", i + 1))?;
            earlier.cut_at = Some(start as u64);
            break;
        }
        let game =
            pdn::parse_first_game(chunk).map_err(|e| format!("game {} in the file: {e}", i + 1))?;
        let earlier_game =
            check(&game, config, jobs).map_err(|m| format!("game {} in the file: {m}", i + 1))?;
        let seen = &mut seen[earlier_game.job.number - 1];
        if std::mem::replace(seen, true) {
            return Err(format!(
                "game {} in the file: round {} is there twice",
                i + 1,
                earlier_game.job.number
            ));
        }
        earlier.games.push(earlier_game);
    }
    Ok(earlier)
}

/// Where each game's text begins: at each line that opens with the Event tag,
/// which `kroon match` writes first.
fn game_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            starts.push(offset);
        }
        offset += line.len();
    }
    starts
}

/// Whether a game's text was written to the end: its result read, and the line
/// break the runner writes after it (a run stopped inside that write leaves a
/// text the next game must not be glued to).
fn written_to_the_end(chunk: &str) -> bool {
    let result = pdn::parse_first_game(chunk).ok().and_then(|g| g.result);
    matches!(result.as_deref(), Some("2-0" | "0-2" | "1-1")) && chunk.ends_with('\n')
}

/// The game of the schedule `game` names by its Round tag (None without one), or
/// why it is none of this match's: the schedule has no such round, or other
/// engines or another opening for it. Only the tags the game has are compared,
/// so that the head of a game cut off while it was written can be checked too.
fn scheduled_job(
    game: &pdn::ParsedGame,
    config: &MatchConfig,
    jobs: &[Job],
) -> Result<Option<Job>, String> {
    let Some(round) = game.tag("Round") else {
        return Ok(None);
    };
    let job = round
        .parse::<usize>()
        .ok()
        .and_then(|n| jobs.get(n.checked_sub(1)?))
        .copied()
        .ok_or_else(|| {
            format!(
                "round {round} is not a game of this match, whose rounds are 1 to {}",
                jobs.len()
            )
        })?;
    let (want_white, want_black) = (
        config.engines[job.white].name.as_str(),
        config.engines[job.black].name.as_str(),
    );
    let white = game.tag("White").unwrap_or(want_white);
    let black = game.tag("Black").unwrap_or(want_black);
    if (white, black) != (want_white, want_black) {
        return Err(format!(
            "round {round} is {white} against {black} there, but {want_white} against \
             {want_black} in this match (other engines, or another order of them)"
        ));
    }
    if game
        .tag("FEN")
        .is_some_and(|fen| fen != config.openings[job.opening].to_fen())
    {
        return Err(format!(
            "round {round} starts from another opening than this match's round {round} \
             (other openings, or another --seed or order)"
        ));
    }
    Ok(Some(job))
}

/// The game of the schedule a finished `game` is, with its outcome, or why it is
/// none of this match's.
fn check(
    game: &pdn::ParsedGame,
    config: &MatchConfig,
    jobs: &[Job],
) -> Result<EarlierGame, String> {
    let tag = |name: &str| {
        game.tag(name)
            .ok_or_else(|| format!("it has no {name} tag"))
    };
    let (white, black) = (tag("White")?, tag("Black")?);
    tag("FEN")?;
    let job = scheduled_job(game, config, jobs)?.ok_or("it has no Round tag")?;
    let round = job.number;
    let result = tag("Result")?;
    let winner = match result {
        "2-0" => Some(Side::White),
        "0-2" => Some(Side::Black),
        "1-1" => None,
        other => return Err(format!("round {round} has no result ({other})")),
    };
    let termination = game.tag("Termination").unwrap_or("").to_string();
    // The runner writes a forfeit as `NAME (SIDE) forfeits: why` (Outcome::why).
    let forfeit = winner.is_some_and(|w| {
        let loser = w.opponent();
        let name = if loser == Side::White { white } else { black };
        termination.starts_with(&format!("{name} ({loser}) forfeits: "))
    });
    Ok(EarlierGame {
        job,
        winner,
        termination,
        forfeit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::matches::schedule;
    use crate::time_control::TimeControl;
    use std::time::Duration;

    fn config(names: [&str; 2], count: usize) -> MatchConfig {
        let engines = names
            .iter()
            .map(|n| format!("name={n} cmd='kroon hub'").parse().unwrap())
            .collect();
        let start = Position::initial();
        // Distinct openings: the start position after each of White's first moves.
        let openings = crate::board::movegen::legal_moves(&start)
            .into_iter()
            .take(count)
            .map(|m| start.play(m))
            .collect();
        MatchConfig {
            engines,
            openings,
            random_seed: Some(7),
            games_per_pair: 2 * count as u32,
            tc: TimeControl::Nodes(100),
            dxp_time: vec![Default::default(); 2],
            time_margin: Duration::ZERO,
            move_timeout: Duration::from_secs(1),
            adjudicate: None,
            max_moves: None,
            tables: None,
            concurrency: 1,
            event: "test".into(),
            sprt: None,
        }
    }

    /// A game of `config`'s match as the runner writes it, with `result` and `termination`.
    fn game_text(config: &MatchConfig, job: &Job, result: &str, termination: &str) -> String {
        format!(
            "[Event \"test\"]\n[Round \"{}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\
             [FEN \"{}\"]\n[Termination \"{termination}\"]\n\n1. 32-28 {{+0.01/3 0.001s}} {result}\n\n",
            job.number,
            config.engines[job.white].name,
            config.engines[job.black].name,
            config.openings[job.opening].to_fen()
        )
    }

    #[test]
    fn the_games_of_an_earlier_run_are_read_back_as_the_schedule_has_them() {
        let config = config(["new", "main"], 3);
        let jobs = schedule(&config);
        // Finished out of order, as two workers finish them.
        let text = game_text(&config, &jobs[1], "0-2", "new (White) has no legal move")
            + &game_text(&config, &jobs[0], "1-1", "draw by 5-move rule")
            + &game_text(
                &config,
                &jobs[3],
                "2-0",
                "new (Black) forfeits: lost on time (0.500 s over)",
            );
        let earlier = parse(&text, &config, &jobs).unwrap();
        assert_eq!(earlier.cut_at, None);
        let got: Vec<(usize, Option<Side>, bool)> = earlier
            .games
            .iter()
            .map(|g| (g.job.number, g.winner, g.forfeit))
            .collect();
        assert_eq!(
            got,
            [
                (2, Some(Side::Black), false),
                (1, None, false),
                (4, Some(Side::White), true)
            ]
        );
        assert_eq!(earlier.games[0].job, jobs[1]);
    }

    #[test]
    fn a_game_cut_off_anywhere_in_its_writing_is_played_again() {
        let config = config(["new", "main"], 2);
        let jobs = schedule(&config);
        let first = game_text(&config, &jobs[0], "1-1", "draw by 25-move rule");
        let second = game_text(&config, &jobs[1], "2-0", "main (Black) has no legal move");
        // Every cut of the second game's text, from its first byte to its result
        // without the line break after it (a torn tag line, the movetext, the result).
        for cut in 1..=second.trim_end().len() {
            let text = first.clone() + &second[..cut];
            let earlier = parse(&text, &config, &jobs)
                .unwrap_or_else(|e| panic!("cut after {cut} bytes: {e}"));
            let rounds: Vec<usize> = earlier.games.iter().map(|g| g.job.number).collect();
            if cut < "[Event ".len() {
                // Not yet a game's start: the torn line is the first game's tail, and
                // the first game is played again rather than have a game glued to it.
                assert_eq!((rounds, earlier.cut_at), (vec![], Some(0)), "cut {cut}");
            } else {
                let cut_at = Some(first.len() as u64);
                assert_eq!((rounds, earlier.cut_at), (vec![1], cut_at), "cut {cut}");
            }
        }
        let whole = parse(&(first + &second), &config, &jobs).unwrap();
        assert_eq!((whole.games.len(), whole.cut_at), (2, None));
    }

    #[test]
    fn a_half_written_game_of_another_match_is_refused_not_cut() {
        let config = config(["new", "main"], 2);
        let jobs = schedule(&config);
        let first = game_text(&config, &jobs[0], "1-1", "draw by 25-move rule");
        let half = &first[..first.find("1. 32-28").unwrap()];
        let other = self::config(["a", "b"], 2);
        let err = parse(half, &other, &schedule(&other)).unwrap_err();
        assert!(err.contains("new against main there"), "{err}");
        // Of this match, the same text is cut and played again.
        let earlier = parse(half, &config, &jobs).unwrap();
        assert_eq!((earlier.games.len(), earlier.cut_at), (0, Some(0)));
    }

    #[test]
    fn a_file_of_another_match_is_refused_with_what_differs() {
        let config = config(["new", "main"], 9);
        let jobs = schedule(&config);
        let text = game_text(&config, &jobs[0], "1-1", "draw by 5-move rule");
        // Other engine names.
        let other = self::config(["a", "b"], 9);
        let err = parse(&text, &other, &schedule(&other)).unwrap_err();
        assert!(err.contains("new against main there"), "{err}");
        // Another opening order.
        let mut reseeded = config.clone();
        reseeded.random_seed = Some(8);
        let reseeded_jobs = schedule(&reseeded);
        assert_ne!(reseeded_jobs[0].opening, jobs[0].opening, "seed 8 reorders");
        let err = parse(&text, &reseeded, &reseeded_jobs).unwrap_err();
        assert!(err.contains("another opening"), "{err}");
        // A round the match does not have.
        let mut short = config.clone();
        short.games_per_pair = 0;
        let err = parse(&text, &short, &schedule(&short)).unwrap_err();
        assert!(err.contains("round 1 is not a game of this match"), "{err}");
        // The same round twice.
        let twice = text.clone() + &text;
        let err = parse(&twice, &config, &jobs).unwrap_err();
        assert!(err.contains("round 1 is there twice"), "{err}");
        // Not a match's PDN at all.
        let err = parse("1. 32-28 19-23 *\n", &config, &jobs).unwrap_err();
        assert!(err.contains("not a PDN file of `kroon match`"), "{err}");
        // An empty file is a match not begun.
        assert!(parse("", &config, &jobs).unwrap().games.is_empty());
    }
}
