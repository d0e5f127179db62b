//! `kroon rescore`: a training file's positions scored again by a deeper search.
//!
//! Self-play keeps the score of the search that chose each move, a few thousand
//! nodes deep, and the network learns mostly that score (`kroon train --lambda`).
//! Rescoring searches every kept position again, alone, to `--nodes` with the
//! evaluation given, and writes the same file with only the scores replaced:
//! headers, positions, results, plies and game numbers stay, so the file trains,
//! splits for validation and concatenates exactly as the original.
//!
//! Each position is searched with a cleared table, so its score depends on the
//! position, the evaluation and the nodes only: a stopped run resumes after the
//! blocks the output holds (it must be the start of a rescoring of the same input),
//! and the file is the same whatever the threads. For the same reason a position
//! met again (the openings' first moves repeat across games: about a tenth of
//! round 21s's records) takes the score of its first search instead of a second,
//! identical one; the scores found are kept by position for the whole run (some
//! 50 bytes a position, half a gigabyte for 8 M).
//!
//! A `--versus` run keeps both players' positions, each with its own search's
//! score, so half of its labels are the other (usually weaker) player's opinion of
//! its own positions. `--other-player` searches only those: every label of the
//! file is then the run's evaluation's, and the run's own scores are kept as
//! they are.

use super::progress::format_duration;
use super::selfplay::{moved_by_other_player, one_thread_engine, stored_score};
use super::training_data::{read_file, Block, ReadSummary, Record, BLOCK};
use crate::board::Position;
use crate::egdb::Tables;
use crate::engine::{Engine, TimeControl};
use crate::eval::Evaluator;
use crate::game::Game;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Blocks searched between two writes: a stopped run loses at most one chunk.
const CHUNK: usize = 2048;
/// Table per search, cleared before each: enough for a few hundred thousand nodes,
/// and small enough that clearing it costs little beside them.
const HASH_MB: usize = 4;

#[derive(Clone, Debug)]
pub struct RescoreConfig {
    pub data: PathBuf,
    pub out: PathBuf,
    pub nodes: u64,
    pub threads: usize,
    pub evaluator: Evaluator,
    /// Endgame tables the searches probe (complete piece counts only, as in
    /// self-play).
    pub tables: Option<Arc<Tables>>,
    /// Search only the positions the other player of a `--versus` run moved in.
    pub other_player: bool,
    pub progress: bool,
}

/// For each block, whether its record is to be searched again: every record, or
/// with `other_player` those the other player of a `--versus` run moved in.
fn to_search(input: &[Block], other_player: bool) -> Vec<bool> {
    let mut header = None;
    input
        .iter()
        .map(|block| match block {
            Block::Header(h) => {
                header = Some(*h);
                false
            }
            Block::Record(r) => {
                !other_player || header.is_some_and(|h| moved_by_other_player(&h, r))
            }
        })
        .collect()
}

/// Reads a whole training file.
fn read_blocks(path: &std::path::Path) -> Result<(Vec<Block>, ReadSummary), String> {
    let mut blocks = Vec::new();
    let summary = read_file(path, |b| blocks.push(*b))?;
    Ok((blocks, summary))
}

/// Whether `done` is `original` with (at most) other scores.
fn same_but_scores(done: &Block, original: &Block) -> bool {
    match (done, original) {
        (Block::Record(d), Block::Record(o)) => {
            Record {
                score: o.score,
                ..*d
            } == *o
        }
        _ => done == original,
    }
}

/// The blocks of the output already done, checked against the input, and the
/// output opened to append the rest (a partial last block cut off).
fn open_output(
    config: &RescoreConfig,
    input: &[Block],
) -> Result<(Vec<Block>, std::fs::File), String> {
    let out = config.out.display();
    let same_file = |a: &std::path::Path, b: &std::path::Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same_file(&config.out, &config.data) {
        return Err(format!("{out}: the output cannot be the input file"));
    }
    let mut done = Vec::new();
    let mut keep_bytes = 0;
    if config.out.exists() {
        let (blocks, summary) = read_blocks(&config.out)?;
        if blocks.len() > input.len()
            || blocks
                .iter()
                .zip(input)
                .any(|(d, o)| !same_but_scores(d, o))
        {
            return Err(format!(
                "{out}: not a rescoring of {} (give another --out, or remove it to start again)",
                config.data.display()
            ));
        }
        keep_bytes = summary.blocks * BLOCK as u64;
        if !blocks.is_empty() {
            eprintln!(
                "{out}: resuming after {} of {} blocks",
                blocks.len(),
                input.len()
            );
        }
        done = blocks;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .map_err(|e| format!("{out}: {e}"))?;
    file.set_len(keep_bytes)
        .map_err(|e| format!("{out}: {e}"))?;
    Ok((done, file))
}

/// The score of `position` by a search of `nodes` from a cleared table, or `old`
/// when the search completed no iteration (it cannot at these budgets).
fn search_score(engine: &mut Engine, position: Position, old: i16, nodes: u64) -> i16 {
    engine.new_game();
    let found = engine.analyse_blocking(&Game::from_position(position), TimeControl::Nodes(nodes));
    if found.depth > 0 {
        stored_score(found.score)
    } else {
        old
    }
}

/// The positions of `chunk` that need a search: those `searched` marks and not in
/// `known`, each once.
fn positions_to_search(
    chunk: &[Block],
    searched: &[bool],
    known: &HashMap<Position, i16>,
) -> Vec<(Position, i16)> {
    let mut seen = std::collections::HashSet::new();
    chunk
        .iter()
        .zip(searched)
        .filter_map(|(block, &search)| match block {
            Block::Record(r)
                if search && !known.contains_key(&r.position) && seen.insert(r.position) =>
            {
                Some((r.position, r.score))
            }
            _ => None,
        })
        .collect()
}

/// The scores of `todo`'s positions, each searched by one of the `engines` (one
/// thread each, taking every n-th position).
fn search_all(
    engines: &mut [Engine],
    todo: &[(Position, i16)],
    nodes: u64,
) -> Vec<(Position, i16)> {
    let threads = engines.len();
    std::thread::scope(|scope| {
        let handles: Vec<_> = engines
            .iter_mut()
            .enumerate()
            .map(|(t, engine)| {
                scope.spawn(move || {
                    todo.iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&(position, old)| {
                            (position, search_score(engine, position, old, nodes))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a rescoring thread panicked"))
            .collect()
    })
}

/// Runs the rescoring to the end of the input.
pub fn run(config: &RescoreConfig) -> Result<(), String> {
    let (input, _) = read_blocks(&config.data)?;
    let (done_blocks, mut out) = open_output(config, &input)?;
    let done = done_blocks.len();
    let search = to_search(&input, config.other_player);
    // Records this run will search (or take from a repeat): the progress line's goal.
    let to_do = search[done..].iter().filter(|&&s| s).count() as u64;
    // The scores found so far, by position, an earlier run's among them.
    let mut known: HashMap<Position, i16> = done_blocks
        .iter()
        .zip(&search)
        .filter_map(|(block, &searched)| match block {
            Block::Record(r) if searched => Some((r.position, r.score)),
            _ => None,
        })
        .collect();
    drop(done_blocks);
    let threads = config.threads.max(1);
    let mut engines: Vec<Engine> = (0..threads)
        .map(|_| one_thread_engine(&config.evaluator, config.tables.as_ref(), HASH_MB))
        .collect();
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut changed = 0u64;
    let mut searched = 0u64;
    // Positions searched; the other records written repeat one met before.
    let mut fresh = 0u64;
    for chunk_start in (done..input.len()).step_by(CHUNK) {
        let end = (chunk_start + CHUNK).min(input.len());
        let (chunk, marked) = (&input[chunk_start..end], &search[chunk_start..end]);
        let todo = positions_to_search(chunk, marked, &known);
        known.extend(search_all(&mut engines, &todo, config.nodes));
        fresh += todo.len() as u64;
        let mut bytes = Vec::with_capacity(chunk.len() * BLOCK);
        for (block, &marked) in chunk.iter().zip(marked) {
            let new = match block {
                Block::Record(r) if marked => {
                    searched += 1;
                    changed += u64::from(known[&r.position] != r.score);
                    Block::Record(Record {
                        score: known[&r.position],
                        ..*r
                    })
                }
                other => *other,
            };
            bytes.extend_from_slice(&new.encode());
        }
        out.write_all(&bytes)
            .map_err(|e| format!("{}: {e}", config.out.display()))?;
        if config.progress && last_report.elapsed() >= Duration::from_secs(1) {
            let rate = searched as f64 / start.elapsed().as_secs_f64().max(1e-3);
            let eta = Duration::from_secs_f64((to_do - searched) as f64 / rate.max(1e-3));
            eprint!(
                "\rblocks {end}/{} positions {searched} ({rate:.0}/s) elapsed {} eta {}",
                input.len(),
                format_duration(start.elapsed()),
                format_duration(eta)
            );
            last_report = Instant::now();
        }
    }
    if config.progress {
        eprintln!();
    }
    let repeats = searched - fresh;
    println!(
        "{searched} positions rescored at {} nodes ({changed} scores changed; {repeats} repeats \
         of a position met before, searched once), written to {} in {}",
        config.nodes,
        config.out.display(),
        format_duration(start.elapsed())
    );
    Ok(())
}
