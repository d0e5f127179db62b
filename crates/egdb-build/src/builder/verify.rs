//! `kroon egdb check`: the tables already in a folder checked again, position by
//! position, from their files alone: each stored value must be the best its
//! successors' values give (a loss with no move), where the successors are probed
//! in the same tables. The build checks each unit this way before writing it; this
//! command checks files that were copied, kept for a long time, or built elsewhere.

use kroon_engine::egdb::index::{Cursor, Material};
use kroon_engine::egdb::{Tables, Wdl};
use kroon_rules::board::movegen::{generate, has_capture};
use rayon::prelude::*;
use std::path::Path;

/// Positions one task checks.
const TASK: u64 = 1 << 16;

/// Checks every slice of up to `pieces` pieces in `dir` (a line per slice on
/// stderr when `progress`); returns the positions checked, or an error naming the
/// first slices whose values disagree with their successors, or are missing.
pub fn check(dir: &Path, pieces: u32, progress: bool) -> Result<u64, String> {
    let tables = Tables::open(dir, pieces)?;
    let mut checked = 0;
    let mut bad = Vec::new();
    for m in (2..=pieces).flat_map(Material::all_with) {
        if !tables.has(m) {
            return Err(format!("slice {m} is missing from {}", dir.display()));
        }
        let (positions, wrong) = check_slice(&tables, m);
        checked += positions;
        if progress {
            eprintln!("egdb check {m}: {positions} positions, {wrong} disagree");
        }
        if wrong > 0 {
            bad.push(format!("{m} ({wrong} positions)"));
        }
    }
    if bad.is_empty() {
        Ok(checked)
    } else {
        Err(format!(
            "values disagree with their successors in slices {}",
            bad.join(", ")
        ))
    }
}

/// The positions of one slice checked (those with a capture pending are played out
/// by every probe, so their stored values are never read and not checked), and how
/// many disagree.
fn check_slice(tables: &Tables, m: Material) -> (u64, u64) {
    (0..m.size().div_ceil(TASK))
        .into_par_iter()
        .map(|task| {
            let mut cursor = Cursor::new(m);
            let mut moves = Vec::new();
            let (mut positions, mut wrong) = (0, 0);
            for index in task * TASK..((task + 1) * TASK).min(m.size()) {
                let Some(pos) = cursor.position(index) else {
                    continue;
                };
                if has_capture(&pos) {
                    continue;
                }
                positions += 1;
                generate(&pos, &mut moves);
                // A successor the tables do not hold makes the best unknown, and
                // the position counts as disagreeing.
                let best = moves.iter().try_fold(Wdl::Loss, |best, &mv| {
                    let value = tables.probe(&pos.play_unkeyed(mv))?.negated();
                    Some(best.max(value))
                });
                if best.is_none() || tables.probe(&pos) != best {
                    let best = best.map_or("unknown".into(), |b| b.to_string());
                    if wrong == 0 {
                        log::error!("egdb check: {} is not {best}", pos.to_fen());
                    }
                    wrong += 1;
                }
            }
            (positions, wrong)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_engine::egdb::file;

    #[test]
    fn built_tables_pass_the_check_and_a_changed_value_does_not() {
        let dir = std::env::temp_dir().join(format!("kroon-egdb-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        super::super::build(&super::super::BuildConfig {
            dir: dir.clone(),
            pieces: 3,
            progress: false,
            only: None,
        })
        .unwrap();
        let all: u64 = (2..=3).flat_map(Material::all_with).map(|m| m.size()).sum();
        let checked = check(&dir, 3, false).unwrap();
        assert!(checked > all / 4 && checked < all, "{checked} of {all}");
        // One block of a slice rewritten as all draws: its wins and losses no
        // longer agree with their successors.
        let m: Material = "0201".parse().unwrap();
        let values = vec![0u8; m.size() as usize];
        let blocks: Vec<Vec<u8>> = values
            .chunks(file::BLOCK_POSITIONS as usize)
            .map(file::compress_block)
            .collect();
        file::write(&dir, m, &blocks).unwrap();
        let refused = check(&dir, 3, false).unwrap_err();
        assert!(refused.contains("0201"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
