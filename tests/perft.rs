//! Perft against the published counts in `tests/data/perft.txt`: the standard proof of
//! a move generator. Every FMJD rule shows up in these trees, and the counts come from
//! two independent engines.

use kroon::board::movegen::legal_moves;
use kroon::board::perft::{divide, perft, perft_parallel};
use kroon::board::Position;

struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
    deep: bool,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let cases: Vec<Case> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert!(
                fields.len() == 3 || fields.len() == 4,
                "bad perft line: {line}"
            );
            Case {
                fen: fields[0].to_string(),
                depth: fields[1].parse().expect("depth"),
                nodes: fields[2].parse().expect("count"),
                deep: fields.get(3) == Some(&"deep"),
            }
        })
        .collect();
    assert!(cases.len() >= 17, "perft data file lost cases");
    cases
}

fn position(case: &Case) -> Position {
    Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen))
}

#[test]
fn start_position_depths_one_to_nine() {
    let start = Position::initial();
    let got: Vec<u64> = (1..=9).map(|d| perft(&start, d)).collect();
    assert_eq!(
        got,
        [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423]
    );
    assert_eq!(perft(&start, 0), 1);
}

#[test]
fn published_counts() {
    for case in cases().iter().filter(|c| !c.deep) {
        assert_eq!(
            perft(&position(case), case.depth),
            case.nodes,
            "perft({}) of {}",
            case.depth,
            case.fen
        );
    }
}

#[test]
fn parallel_perft_gives_the_same_counts() {
    for case in cases().iter().filter(|c| !c.deep) {
        let pos = position(case);
        assert_eq!(
            perft_parallel(&pos, case.depth, 2),
            case.nodes,
            "perft_parallel({}) of {}",
            case.depth,
            case.fen
        );
    }
    // The shallow cases take the sequential path; check every small depth too.
    let start = Position::initial();
    for depth in 0..=5 {
        assert_eq!(perft_parallel(&start, depth, 3), perft(&start, depth));
    }
}

#[test]
fn divide_sums_to_the_count_and_lists_every_legal_move_once() {
    for case in cases()
        .iter()
        .filter(|c| !c.deep && c.depth >= 2 && c.nodes < 10_000_000)
    {
        let pos = position(case);
        let parts = divide(&pos, case.depth, 2);
        assert_eq!(
            parts.iter().map(|&(_, n)| n).sum::<u64>(),
            case.nodes,
            "divide({}) of {}",
            case.depth,
            case.fen
        );
        let mut listed: Vec<_> = parts.iter().map(|&(m, _)| m).collect();
        let mut legal = legal_moves(&pos);
        assert_eq!(listed.len(), legal.len());
        listed.sort_by_key(|m| (m.from(), m.to(), m.captured().0));
        legal.sort_by_key(|m| (m.from(), m.to(), m.captured().0));
        assert_eq!(listed, legal);
        for &(mv, n) in &parts {
            assert_eq!(n, perft(&pos.play(mv), case.depth - 1));
        }
    }
    // Depth 1: each move counts one leaf.
    let parts = divide(&Position::initial(), 1, 2);
    assert_eq!(parts.len(), 9);
    assert!(parts.iter().all(|&(_, n)| n == 1));
}

fn run_deep(fen_prefix: &str, depth: u32) {
    let case = cases()
        .into_iter()
        .find(|c| c.deep && c.fen.starts_with(fen_prefix) && c.depth == depth)
        .expect("deep case in the data file");
    assert_eq!(
        perft_parallel(&position(&case), case.depth, 2),
        case.nodes,
        "perft({}) of {}",
        case.depth,
        case.fen
    );
}

#[test]
#[ignore = "several seconds: run with --ignored"]
fn start_position_depth_ten() {
    run_deep("W:W31-50:B1-20", 10);
}

#[test]
#[ignore = "tens of seconds: run with --ignored"]
fn start_position_depth_eleven() {
    run_deep("W:W31-50:B1-20", 11);
}

#[test]
#[ignore = "tens of seconds: run with --ignored"]
fn woldouby_position_depth_nine() {
    run_deep("B:W6,9,10,11,20", 9);
}

#[test]
#[ignore = "seconds: run with --ignored"]
fn depth_fifteen_position() {
    run_deep("W:W25,27,28,30", 15);
}
