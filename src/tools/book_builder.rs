//! Growing the book by Kroon's own search, by drop-out expansion.
//!
//! The book is a tree of positions from the start position (transpositions
//! merged). A leaf's score is a search of a fixed number of nodes on one thread
//! with a fresh table, so a build gives the same book on every machine; an
//! expanded position's score is the minimax value of its successors. To expand a
//! position is to search all of its successors as new leaves.
//!
//! Every position fewer than `full_plies` plies from the start is expanded. Past
//! that, a leaf's priority is the sum, along the cheapest line to it, of each
//! move's drop-out (how much worse than the best move it scores, in hundredths)
//! plus `ply_cost` a ply; only moves with a drop-out within `margin` are followed.
//! The leaves with the lowest priority, the most uncertain of the lines that
//! matter, are expanded next, [`BATCH`] at a time, their successors' searches
//! shared by the threads.
//!
//! The book file itself is the checkpoint: it keeps which positions were expanded
//! and every leaf's score, so a build that stops resumes from it, and a build with
//! a larger target extends it. A batch that is interrupted is searched again.

use super::progress::format_duration;
use crate::board::movegen::legal_moves;
use crate::board::zobrist::Key;
use crate::board::Position;
use crate::book::format::{self, BuildSettings, Entry};
use crate::engine::{Engine, EngineOptions, Score, TimeControl};
use crate::eval::Evaluator;
use crate::game::Game;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Leaves expanded per round. Fixed, not tied to the thread count, so that the
/// book's shape does not depend on the machine.
pub const BATCH: usize = 8;

/// The table of each leaf search, MiB.
const LEAF_HASH_MB: usize = 16;

/// The book is written this often while it grows.
const CHECKPOINT: Duration = Duration::from_secs(60);

/// What `kroon book build` does.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The book file: read first if it exists (to resume or extend), written as it grows.
    pub out: PathBuf,
    /// Stop when the book holds this many positions.
    pub positions: usize,
    pub settings: BuildSettings,
    /// Leaf searches at once.
    pub threads: usize,
    pub evaluator: Evaluator,
    /// A progress line on stderr.
    pub progress: bool,
}

/// A position of the tree being built.
struct Node {
    position: Position,
    /// The leaf search's score (side to move's view); for an expanded node, its
    /// minimax value as last written.
    score: i16,
    expanded: bool,
}

/// The tree being built.
struct Tree {
    nodes: HashMap<Key, Node>,
    root: Key,
}

impl Tree {
    /// The tree of a book file: the positions reachable from the start through
    /// expanded positions (anything else in the file is dropped).
    fn from_entries(entries: &[Entry]) -> Tree {
        let by_key: HashMap<Key, Entry> = entries.iter().map(|e| (e.key, *e)).collect();
        let start = Position::initial();
        let mut tree = Tree {
            nodes: HashMap::new(),
            root: start.key(),
        };
        let Some(root) = by_key.get(&start.key()) else {
            return tree;
        };
        let mut stack = vec![(start, *root)];
        tree.insert(start, root.score, root.expanded);
        while let Some((position, entry)) = stack.pop() {
            if !entry.expanded {
                continue;
            }
            let successors: Vec<Position> = legal_moves(&position)
                .into_iter()
                .map(|mv| position.play(mv))
                .collect();
            if successors.iter().any(|p| !by_key.contains_key(&p.key())) {
                // Not really expanded: expand it again.
                tree.nodes
                    .get_mut(&position.key())
                    .expect("inserted")
                    .expanded = false;
                continue;
            }
            for after in successors {
                let entry = by_key[&after.key()];
                if !tree.nodes.contains_key(&after.key()) {
                    tree.insert(after, entry.score, entry.expanded);
                    stack.push((after, entry));
                }
            }
        }
        tree
    }

    fn insert(&mut self, position: Position, score: i16, expanded: bool) {
        self.nodes.insert(
            position.key(),
            Node {
                position,
                score,
                expanded,
            },
        );
    }

    fn successors(&self, key: Key) -> Vec<Key> {
        let position = &self.nodes[&key].position;
        legal_moves(position)
            .into_iter()
            .map(|mv| position.play(mv).key())
            .collect()
    }

    /// Minimax values of every node reachable from the root.
    fn values(&self) -> HashMap<Key, i16> {
        let mut values = HashMap::with_capacity(self.nodes.len());
        self.value(self.root, &mut values, &mut HashSet::new());
        values
    }

    fn value(&self, key: Key, values: &mut HashMap<Key, i16>, open: &mut HashSet<Key>) -> i16 {
        if let Some(&v) = values.get(&key) {
            return v;
        }
        let node = &self.nodes[&key];
        let v = if node.expanded && open.insert(key) {
            // A position without a move is lost (Score::WIN fits an i16).
            let mut best = -(Score::WIN.0 as i16);
            for after in self.successors(key) {
                best = best.max(-self.value(after, values, open));
            }
            open.remove(&key);
            best
        } else {
            // A leaf, or (never in practice: men only move forward) a cycle.
            node.score
        };
        values.insert(key, v);
        v
    }

    /// The next leaves to expand, lowest priority first (see the module's doc).
    fn next_leaves(&self, settings: &BuildSettings, values: &HashMap<Key, i16>) -> Vec<Key> {
        let mut done = HashSet::new();
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0i64, 0u16, self.root)));
        let mut leaves = Vec::new();
        while let Some(Reverse((priority, ply, key))) = heap.pop() {
            if !done.insert(key) {
                continue;
            }
            if !self.nodes[&key].expanded {
                leaves.push(key);
                if leaves.len() == BATCH {
                    break;
                }
                continue;
            }
            let best = values[&key];
            for after in self.successors(key) {
                let drop_out = i64::from(best) + i64::from(values[&after]);
                let cost = if ply + 1 < settings.full_plies {
                    0
                } else if drop_out <= i64::from(settings.margin) {
                    drop_out + i64::from(settings.ply_cost)
                } else {
                    continue;
                };
                heap.push(Reverse((priority + cost, ply + 1, after)));
            }
        }
        leaves
    }

    fn entries(&self) -> Vec<Entry> {
        let values = self.values();
        self.nodes
            .iter()
            .map(|(&key, node)| Entry {
                key,
                score: values.get(&key).copied().unwrap_or(node.score),
                expanded: node.expanded,
            })
            .collect()
    }
}

/// Searches positions on `threads` threads, each with its own engine; scores in
/// the order given.
fn search_all(positions: &[Position], engines: &mut [Engine], leaf_nodes: u64) -> Vec<i16> {
    let next = AtomicUsize::new(0);
    let scores = Mutex::new(vec![0i16; positions.len()]);
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (next, scores) = (&next, &scores);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(position) = positions.get(i) else {
                    return;
                };
                // A fresh table each time: a leaf's score must not depend on what
                // this thread searched before.
                engine.new_game();
                // Analysis, not play: a forced capture, common in the opening,
                // must be searched and scored too.
                let result = engine.analyse_blocking(
                    &Game::from_position(*position),
                    TimeControl::Nodes(leaf_nodes),
                );
                let score = result
                    .score
                    .0
                    .clamp(-i32::from(i16::MAX), i32::from(i16::MAX));
                scores.lock().expect("no search panics holding it")[i] = score as i16;
            });
        }
    });
    scores.into_inner().expect("no search panics holding it")
}

fn write_book(config: &BuildConfig, tree: &Tree) -> Result<(), String> {
    let bytes = format::encode(&config.settings, &mut tree.entries());
    // Written aside and renamed, so that a build killed while writing keeps the
    // last whole book.
    let partial = config.out.with_extension("partial");
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, &config.out))
        .map_err(|e| format!("cannot write {}: {e}", config.out.display()))
}

fn progress_line(
    size: usize,
    target: usize,
    searched: u64,
    start: Instant,
    grown: usize,
) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let eta = if grown > 0 && target > size {
        let rate = grown as f64 / secs;
        format_duration(Duration::from_secs_f64((target - size) as f64 / rate))
    } else {
        "-".into()
    };
    format!(
        "positions {size}/{target} leaves searched {searched} ({:.1}/s) elapsed {} eta {eta}",
        searched as f64 / secs,
        format_duration(start.elapsed()),
    )
}

/// The tree to grow: the book in `config.out` if it exists (refused when its
/// leaves were searched with another node count), else an empty one.
fn open_tree(config: &BuildConfig) -> Result<Tree, String> {
    if config.out.exists() {
        let book = crate::book::Book::load(&config.out)?;
        if book.settings().leaf_nodes != config.settings.leaf_nodes {
            return Err(format!(
                "{} was built with {} nodes a leaf, not {}: extend it with the same --nodes, \
                 or build a new book",
                config.out.display(),
                book.settings().leaf_nodes,
                config.settings.leaf_nodes
            ));
        }
        let tree = Tree::from_entries(book.entries());
        eprintln!(
            "{}: resuming from {} positions",
            config.out.display(),
            tree.nodes.len()
        );
        Ok(tree)
    } else {
        Ok(Tree::from_entries(&[]))
    }
}

/// One engine for each of the build's threads, each searching on one thread, so
/// that a leaf's score does not depend on the machine.
fn leaf_engines(config: &BuildConfig) -> Vec<Engine> {
    (0..config.threads.max(1))
        .map(|_| {
            let mut engine = Engine::new(EngineOptions {
                threads: 1,
                hash_mb: LEAF_HASH_MB,
            });
            engine.set_evaluator(config.evaluator.clone());
            engine
        })
        .collect()
}

/// Expands `leaves`: their successors not yet in the tree are searched and added
/// as new leaves. Returns how many were searched.
fn expand(tree: &mut Tree, leaves: Vec<Key>, engines: &mut [Engine], leaf_nodes: u64) -> u64 {
    let mut new = Vec::new();
    let mut seen = HashSet::new();
    for &leaf in &leaves {
        let position = tree.nodes[&leaf].position;
        for mv in legal_moves(&position) {
            let after = position.play(mv);
            if !tree.nodes.contains_key(&after.key()) && seen.insert(after.key()) {
                new.push(after);
            }
        }
    }
    let scores = search_all(&new, engines, leaf_nodes);
    let searched = new.len() as u64;
    for (position, score) in new.into_iter().zip(scores) {
        tree.insert(position, score, false);
    }
    for leaf in leaves {
        tree.nodes
            .get_mut(&leaf)
            .expect("a leaf of the tree")
            .expanded = true;
    }
    searched
}

/// `kroon book build`: grows the book in `config.out` to `config.positions`
/// positions, resuming from the file if it exists.
pub fn run(config: &BuildConfig) -> Result<(), String> {
    let mut tree = open_tree(config)?;
    let mut engines = leaf_engines(config);
    let leaf_nodes = config.settings.leaf_nodes;
    if tree.nodes.is_empty() {
        let start = Position::initial();
        let score = search_all(&[start], &mut engines, leaf_nodes)[0];
        tree.insert(start, score, false);
    }
    let (start, start_size) = (Instant::now(), tree.nodes.len());
    let mut searched = 0u64;
    let mut last_write = Instant::now();
    while tree.nodes.len() < config.positions {
        let values = tree.values();
        let leaves = tree.next_leaves(&config.settings, &values);
        if leaves.is_empty() {
            eprintln!("no line within the margin is left to expand");
            break;
        }
        searched += expand(&mut tree, leaves, &mut engines, leaf_nodes);
        if last_write.elapsed() >= CHECKPOINT {
            write_book(config, &tree)?;
            last_write = Instant::now();
        }
        if config.progress {
            let grown = tree.nodes.len() - start_size;
            eprint!(
                "\r{}",
                progress_line(tree.nodes.len(), config.positions, searched, start, grown)
            );
        }
    }
    write_book(config, &tree)?;
    if config.progress {
        eprintln!();
    }
    println!(
        "{} positions written to {} ({} leaves searched in {})",
        tree.nodes.len(),
        config.out.display(),
        searched,
        format_duration(start.elapsed())
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> BuildSettings {
        BuildSettings {
            leaf_nodes: 2_000,
            full_plies: 2,
            margin: 20,
            ply_cost: 5,
        }
    }

    fn build(dir: &std::path::Path, name: &str, positions: usize) -> crate::book::Book {
        let config = BuildConfig {
            out: dir.join(name),
            positions,
            settings: settings(),
            threads: 2,
            evaluator: Evaluator::default(),
            progress: false,
        };
        run(&config).unwrap();
        crate::book::Book::load(&config.out).unwrap()
    }

    #[test]
    fn a_leaf_with_one_legal_move_is_searched_all_the_same() {
        // White's only move takes a man, and Black cannot take back.
        let forced: Position = "W:W28,45:B23,3".parse().unwrap();
        assert_eq!(legal_moves(&forced).len(), 1);
        let mut engines = [Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 1,
        })];
        let score = search_all(&[forced], &mut engines, 2_000)[0];
        assert!(score > 50, "a man up, scored {score}");
    }

    #[test]
    fn a_build_expands_the_first_plies_and_resumes_to_the_same_book() {
        let dir = std::env::temp_dir().join(format!("kroon-book-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let whole = build(&dir, "whole.bin", 300);
        // Every position of the first ply is expanded: the book answers every reply.
        let start = Position::initial();
        let first = whole.moves(&start).unwrap();
        assert_eq!(first.len(), 9);
        for m in &first {
            assert!(whole.moves(&start.play(m.mv)).is_some());
        }
        // The root's score is the minimax value of its successors.
        assert_eq!(
            i32::from(whole.get(&start).unwrap().score),
            first[0].score.0
        );
        // Stopped at 150 and extended to 300, it is the same book.
        build(&dir, "twice.bin", 150);
        let twice = build(&dir, "twice.bin", 300);
        assert_eq!(twice.entries(), whole.entries());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
