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
//! and the file is the same whatever the threads.

use super::progress::format_duration;
use super::selfplay::{one_thread_engine, stored_score};
use super::training_data::{read_file, Block, ReadSummary, Record, BLOCK};
use crate::egdb::Tables;
use crate::engine::{Engine, TimeControl};
use crate::eval::Evaluator;
use crate::game::Game;
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
    pub progress: bool,
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

/// How many blocks of the output are already done, checked against the input, and
/// the output opened to append the rest (a partial last block cut off).
fn open_output(config: &RescoreConfig, input: &[Block]) -> Result<(usize, std::fs::File), String> {
    let out = config.out.display();
    let same_file = |a: &std::path::Path, b: &std::path::Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same_file(&config.out, &config.data) {
        return Err(format!("{out}: the output cannot be the input file"));
    }
    let mut done = 0;
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
        done = blocks.len();
        keep_bytes = summary.blocks * BLOCK as u64;
        if done > 0 {
            eprintln!("{out}: resuming after {done} of {} blocks", input.len());
        }
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

/// The block with its score replaced by a search of `nodes` (headers unchanged).
fn rescore(engine: &mut Engine, block: &Block, nodes: u64) -> Block {
    let Block::Record(record) = block else {
        return *block;
    };
    engine.new_game();
    let found = engine.analyse_blocking(
        &Game::from_position(record.position),
        TimeControl::Nodes(nodes),
    );
    let mut record = *record;
    // A search that completed no iteration (it cannot at these budgets) keeps the
    // old score rather than none.
    if found.depth > 0 {
        record.score = stored_score(found.score);
    }
    Block::Record(record)
}

/// Runs the rescoring to the end of the input.
pub fn run(config: &RescoreConfig) -> Result<(), String> {
    let (input, _) = read_blocks(&config.data)?;
    let (done, mut out) = open_output(config, &input)?;
    let threads = config.threads.max(1);
    let mut engines: Vec<Engine> = (0..threads)
        .map(|_| one_thread_engine(&config.evaluator, config.tables.as_ref(), HASH_MB))
        .collect();
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut changed = 0u64;
    let mut searched = 0u64;
    for chunk_start in (done..input.len()).step_by(CHUNK) {
        let chunk = &input[chunk_start..(chunk_start + CHUNK).min(input.len())];
        let mut results = vec![None; chunk.len()];
        std::thread::scope(|scope| {
            let handles: Vec<_> = engines
                .iter_mut()
                .enumerate()
                .map(|(t, engine)| {
                    scope.spawn(move || {
                        (t..chunk.len())
                            .step_by(threads)
                            .map(|i| (i, rescore(engine, &chunk[i], config.nodes)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for handle in handles {
                for (i, block) in handle.join().expect("a rescoring thread panicked") {
                    results[i] = Some(block);
                }
            }
        });
        let mut bytes = Vec::with_capacity(chunk.len() * BLOCK);
        for (new, old) in results.iter().zip(chunk) {
            let new = new.expect("every block of the chunk is done");
            if let (Block::Record(n), Block::Record(o)) = (&new, old) {
                searched += 1;
                changed += u64::from(n.score != o.score);
            }
            bytes.extend_from_slice(&new.encode());
        }
        out.write_all(&bytes)
            .map_err(|e| format!("{}: {e}", config.out.display()))?;
        if config.progress && last_report.elapsed() >= Duration::from_secs(1) {
            let end = chunk_start + chunk.len();
            let rate = searched as f64 / start.elapsed().as_secs_f64().max(1e-3);
            let eta = Duration::from_secs_f64((input.len() - end) as f64 / rate.max(1e-3));
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
    println!(
        "{searched} positions rescored at {} nodes ({changed} scores changed), written to {} in {}",
        config.nodes,
        config.out.display(),
        format_duration(start.elapsed())
    );
    Ok(())
}
