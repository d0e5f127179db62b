//! The search's signature: `kroon bench` (its twelve positions, depth 14, one
//! thread, an emptied 32 MiB table for each, the default evaluation: the built-in
//! network) visits exactly this many nodes. Any change to the search, the
//! evaluation, move ordering or the table changes it.

mod common;

/// The node count of `kroon bench`, as Stockfish keeps its `Bench:` line.
///
/// A change that moves it on purpose (a search or evaluation change) says so: its
/// commit message quotes the new count (`bench signature 5399646 -> N`), and the
/// constant here is updated in that commit. A change that should not touch the
/// search (a refactoring, a front end) must leave it alone.
const BENCH_SIGNATURE: u64 = 7_725_002;

#[test]
fn the_bench_signature_is_pinned() {
    // Through the binary, as the commit messages quote it; one thread, so that
    // the count does not depend on the machine or its load. About a second.
    let out = common::kroon().arg("bench").output();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = text.lines().last().unwrap_or_default();
    let nodes: u64 = last
        .split(' ')
        .find_map(|field| field.strip_prefix("nodes="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes= in the last line: {last}"));
    assert_eq!(
        nodes, BENCH_SIGNATURE,
        "`kroon bench` searched {nodes} nodes, not {BENCH_SIGNATURE}: the search changed. \
         If it was meant to, quote `bench signature {BENCH_SIGNATURE} -> {nodes}` in the \
         commit message and set BENCH_SIGNATURE in tests/bench.rs to {nodes} in that \
         commit; if not, find what changed the search."
    );
}
