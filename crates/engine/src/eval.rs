//! Static evaluation: the score of a quiet position from the side to move's view, in
//! hundredths of a man. Three evaluations exist: the small neural network of
//! [`network`] (the default), the learned pattern weights of [`learned`] (what they
//! look at is in [`pattern`], their file in [`weights`]), and the hand-set terms of
//! [`hand`]; an [`Evaluator`] says which one a search uses.

pub mod hand;
pub mod learned;
pub mod network;
pub mod pattern;
pub mod weights;

use kroon_rules::board::{Bitboard, Position};
use learned::Learned;
use network::Network;
use std::sync::{Arc, OnceLock};

/// Which evaluation a search uses. Cheap to clone (the learned tables are shared).
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-set terms.
    Hand,
    /// Learned weights: the built-in ones, or a file's.
    Learned(Arc<Learned>),
    /// A network file's.
    Network(Arc<Network>),
}

/// The network and the pattern weights built into the binary, so that Hub, DXP and
/// the bots need no data path; `docs/learning.md` says how each was made.
static BUILT_IN_NETWORK: &[u8] = include_bytes!("eval/kroon.net");
static BUILT_IN_WEIGHTS: &[u8] = include_bytes!("eval/kroon.weights");

/// The built-in network, decoded once.
fn built_in_network() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            Arc::new(
                Network::decode(BUILT_IN_NETWORK)
                    .expect("the built-in network is valid (a test decodes it)"),
            )
        })
        .clone()
}

/// The built-in pattern weights' tables, made once.
fn built_in_patterns() -> Arc<Learned> {
    static TABLES: OnceLock<Arc<Learned>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let weights = weights::Weights::decode(BUILT_IN_WEIGHTS)
                .expect("the built-in weights are valid (a test decodes them)");
            Arc::new(Learned::new(weights))
        })
        .clone()
}

/// The name of the default evaluation, as [`Evaluator::from_name`] takes it.
pub const DEFAULT_NAME: &str = "network";

impl Default for Evaluator {
    /// The built-in network: at its own (lower) node rate it beat the built-in
    /// patterns with the endgame tables and was level or better without them
    /// (docs/learning.md, round 13).
    fn default() -> Evaluator {
        Evaluator::Network(built_in_network())
    }
}

impl Evaluator {
    /// The score of a quiet position (no capture pending for the side to move) from
    /// the side to move's view; the search calls it on no other.
    #[must_use]
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluator::Hand => hand::evaluate(pos),
            Evaluator::Learned(tables) => tables.evaluate(pos),
            Evaluator::Network(net) => net.evaluate(pos),
        }
    }

    /// The evaluation a user names: `network` (the network built in, the default),
    /// `learned` (the pattern weights built in), `hand`, or a weights or network
    /// file (told apart by their first bytes). A file that cannot be read, or is not
    /// a valid file of its kind, is an error naming it.
    pub fn from_name(name: &str) -> Result<Evaluator, String> {
        match name {
            "hand" => Ok(Evaluator::Hand),
            "learned" | "patterns" => Ok(Evaluator::Learned(built_in_patterns())),
            "network" | "nnue" => Ok(Evaluator::default()),
            path => {
                let path = std::path::Path::new(path);
                if is_network_file(path) {
                    return Ok(Evaluator::Network(Arc::new(Network::load(path)?)));
                }
                let weights = weights::Weights::load(path)?;
                Ok(Evaluator::Learned(Arc::new(Learned::new(weights))))
            }
        }
    }
}

/// Whether a file starts as a network file does (anything else is read as weights,
/// whose reader says what is wrong with it).
fn is_network_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == network::file::FRAME.tag)
}

/// The position with the board turned half a turn and the colours swapped (the side
/// to move too): the same game seen from the other side. Every evaluation scores it
/// as the position itself.
#[must_use]
pub fn flip(pos: &Position) -> Position {
    use kroon_rules::board::Side;
    let turn = |bits: u64| Bitboard(hand::rotate(bits));
    Position::new(
        turn(pos.side_bits(Side::Black)),
        turn(pos.side_bits(Side::White)),
        turn(pos.king_bits()),
        pos.side_to_move().opponent(),
    )
    .expect("the mirror of a valid position is valid")
}

/// What tests of evaluations share (the trainer's in the tools layer too, hence
/// public): positions along random games, and weights with every pattern set so
/// that a broken symmetry shows.
pub mod testing {
    use super::weights::Weights;
    use kroon_rules::board::Position;

    /// The positions (with a legal move) of `games` random games of up to `plies`.
    #[must_use]
    pub fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        let mut out = Vec::new();
        for _ in 0..games {
            let mut p = Position::initial();
            for _ in 0..plies {
                let moves = kroon_rules::board::movegen::legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                out.push(p);
                p = p.play(moves[next() % moves.len()]);
            }
        }
        out
    }

    /// Weights with every pattern and dense term set to some value.
    #[must_use]
    pub fn busy_weights() -> Weights {
        let mut w = Weights::zero();
        for (i, pair) in w.patterns.iter_mut().enumerate() {
            *pair = [
                (i * 7919 % 801) as i16 - 400,
                (i * 104_729 % 801) as i16 - 400,
            ];
        }
        w.dense = [
            [800, 900],
            [2400, 2000],
            [3, 9],
            [-5, 20],
            [400, 300],
            [30, 10],
            [50, 90],
            [7, 3],
            [90, 60],
            [40, -16],
        ];
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipped_positions_score_the_same_for_the_side_to_move() {
        let learned = Evaluator::Learned(Arc::new(Learned::new(testing::busy_weights())));
        let net = Evaluator::Network(Arc::new(network::testing::busy_network(5, 64)));
        for p in testing::random_positions(5, 30, 150) {
            let mirror = flip(&p);
            assert_eq!(flip(&mirror), p);
            for eval in [&learned, &Evaluator::Hand, &net] {
                // The same game seen from the other side: the same score for the
                // side to move, so opposite scores for White.
                assert_eq!(eval.evaluate(&p), eval.evaluate(&mirror), "{}", p.to_fen());
            }
        }
    }

    #[test]
    fn the_built_in_weights_are_valid() {
        let weights = weights::Weights::decode(BUILT_IN_WEIGHTS).unwrap();
        // Material is worth something in both phases.
        assert!(weights.dense[0][0] > 0 && weights.dense[0][1] > 0);
        assert!(matches!(
            Evaluator::from_name("learned"),
            Ok(Evaluator::Learned(_))
        ));
    }

    #[test]
    fn the_built_in_network_is_valid_and_the_default() {
        Network::decode(BUILT_IN_NETWORK).unwrap();
        assert!(matches!(Evaluator::default(), Evaluator::Network(_)));
        assert!(matches!(
            Evaluator::from_name(DEFAULT_NAME),
            Ok(Evaluator::Network(_))
        ));
        // A man up at the start is good for either evaluation, seen from either side.
        let up = Position::from_fen("W:W31-50:B2-20").unwrap();
        for name in ["network", "learned"] {
            let eval = Evaluator::from_name(name).unwrap();
            assert!(eval.evaluate(&up) > 50, "{name}: {}", eval.evaluate(&up));
            assert!(eval.evaluate(&flip(&up)) > 50, "{name}");
        }
    }

    #[test]
    fn names_choose_the_evaluation_and_bad_files_are_refused() {
        assert!(matches!(Evaluator::from_name("hand"), Ok(Evaluator::Hand)));
        let dir = std::env::temp_dir().join(format!("kroon-eval-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.weights");
        testing::busy_weights().save(&good).unwrap();
        let Ok(Evaluator::Learned(loaded)) = Evaluator::from_name(good.to_str().unwrap()) else {
            panic!("a saved weights file loads");
        };
        assert!(*loaded.weights() == testing::busy_weights());
        let bad = dir.join("bad.weights");
        let mut bytes = testing::busy_weights().encode();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&bad, bytes).unwrap();
        let err = Evaluator::from_name(bad.to_str().unwrap()).unwrap_err();
        assert!(
            err.contains("bad.weights") && err.contains("truncated"),
            "{err}"
        );
        assert!(Evaluator::from_name(dir.join("none").to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_network_file_is_told_by_its_magic_and_a_damaged_one_refused() {
        let dir = std::env::temp_dir().join(format!("kroon-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = network::testing::busy_network(7, 32);
        let good = dir.join("good.net");
        net.save(&good).unwrap();
        let Ok(Evaluator::Network(loaded)) = Evaluator::from_name(good.to_str().unwrap()) else {
            panic!("a saved network file loads as a network");
        };
        assert!(*loaded == net);
        let cut = dir.join("cut.net");
        let bytes = net.encode();
        std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
        let err = Evaluator::from_name(cut.to_str().unwrap()).unwrap_err();
        assert!(
            err.contains("cut.net") && err.contains("truncated"),
            "{err}"
        );
        let corrupt = dir.join("corrupt.net");
        let mut bytes = bytes;
        bytes[500] ^= 0x10;
        std::fs::write(&corrupt, &bytes).unwrap();
        let err = Evaluator::from_name(corrupt.to_str().unwrap()).unwrap_err();
        assert!(
            err.contains("corrupt.net") && err.contains("checksum"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
