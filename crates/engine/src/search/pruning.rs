//! The search's pruning and reduction margins, in one place so that games can tune
//! them: a front end sets them by name (Hub's `pruning` param, `name:value` pairs),
//! so a match or a tuner can play two settings against each other with one binary.
//! Also the table of late-move reductions made from them.

use std::fmt;

/// Pruning and reduction settings. Depths are in plies, margins in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Late-move reductions from this depth and this move number on.
    pub lmr_depth: i32,
    pub lmr_move: i32,
    /// Reduction = base/100 + ln(depth) ln(move number) / (div/100).
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// No move is reduced by more than this many plies (64: no cap). The
    /// logarithmic reductions grow with the depth, to 5-6 plies for late moves at
    /// depth 15-20, where Scan 2.0 never reduces more than 2; they were tuned at
    /// depths a one-minute game at a real clock passes by (docs/tuning.md).
    pub lmr_max: i32,
    /// A quiet move whose summed history is above this has cut off often lately:
    /// it is reduced a ply less. 2000 (about 3% of the four histories' bound) was
    /// set with the move ordering's packed keys and is reached by about one
    /// reduced move in twenty (`kroon bench --depth 14`); half of them are below
    /// zero, a quarter within 250 above it.
    pub lmr_history: i32,
    /// Late-move pruning: at depth <= this, quiet moves after `base + depth^2` are skipped.
    pub lmp_depth: i32,
    pub lmp_base: i32,
    /// History pruning (0: off, the default): away from the principal variation, at
    /// depth <= this, a quiet move whose summed history is below -margin x depth is
    /// skipped as late-move pruning skips the moves past its count: moves that
    /// failed low again and again lately, before that count is reached. As with
    /// the other pruning, a move that offers a capture is searched.
    pub history_prune_depth: i32,
    pub history_prune_margin: i32,
    /// Reverse futility: return the static eval when it beats beta by margin x depth.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Futility: skip quiet moves when the static eval is below alpha by margin x depth.
    pub futility_depth: i32,
    pub futility_margin: i32,
    /// Probcut from this depth on: a search to depth x ratio/100 that beats beta by
    /// margin x depth returns at once. The ratio is 40 (Scan's share of the depth),
    /// not the 50 the SPSA of 26 November moved it to: 40 won +7.8 Elo [+2.5, +13.0]
    /// by SPRT on 4-move.fen at a one-minute node clock (docs/tuning.md, 3 December).
    pub probcut_depth: i32,
    pub probcut_margin: i32,
    pub probcut_ratio: i32,
    /// At the horizon, a threatened capture is looked into unless the static score
    /// beats beta by more than this.
    pub threat_margin: i32,
    /// The quiescence plies, from the horizon down, at which a quiet position
    /// without kings may offer an exchange (1: the horizon only).
    pub offer_plies: i32,
    /// A node with a single legal move searches it a ply deeper: 0 on the
    /// principal variation only, 1 at every node (as Scan 2.0 does; the default
    /// since it won its match at equal nodes, docs/tuning.md).
    pub single_reply: i32,
    /// Singular extension from this depth on (0: never): the table's move is
    /// searched a ply deeper when every other move, searched to half the depth
    /// with a null window, stays below the table's score less `singular-margin`
    /// x depth hundredths (`worker/singular.rs`). Off by default: at 60,000 nodes
    /// a move with the patterns it searched 2.5x the nodes for no gain
    /// (docs/tuning.md); chess engines gain from it at long clocks.
    pub singular_depth: i32,
    pub singular_margin: i32,
    /// Not pruning but the root's window, tuned the same way: from depth 5 an
    /// iteration searches within this many hundredths either side of the last
    /// one's score, and each time the score falls outside, the window grows by
    /// half plus the widening (the first engine's 18 and 10, untuned until these;
    /// a widening of at least 1 so that a window of 1 still opens at last).
    pub aspiration_window: i32,
    pub aspiration_widening: i32,
    /// The static score corrected by what this move's searches found in the same
    /// men's formations (`correction.rs`), at this percent of the tables' mean
    /// (0: off, the default: at 100 it played level with it at the one-minute node
    /// clock, -0.7 Elo in 471 games, H0; docs/tuning.md).
    pub correction: i32,
}

impl Pruning {
    /// The settings in use unless a front end says otherwise. The depths were set by
    /// hand; the margins and the reductions' terms come from a joint SPSA tune (400
    /// iterations at 50,000 nodes a move) that then won its SPRT against the hand
    /// values (docs/tuning.md, "Tuning the margins").
    pub const DEFAULT: Pruning = Pruning {
        lmr_depth: 3,
        lmr_move: 2,
        lmr_base: 49,
        lmr_div: 149,
        lmr_max: 64,
        lmr_history: 2000,
        lmp_depth: 3,
        lmp_base: 4,
        history_prune_depth: 0,
        history_prune_margin: 100,
        rfp_depth: 3,
        rfp_margin: 84,
        futility_depth: 2,
        futility_margin: 84,
        probcut_depth: 3,
        probcut_margin: 7,
        probcut_ratio: 40,
        threat_margin: 107,
        offer_plies: 1,
        single_reply: 1,
        singular_depth: 0,
        singular_margin: 2,
        aspiration_window: 18,
        aspiration_widening: 10,
        correction: 0,
    };
}

impl Default for Pruning {
    fn default() -> Pruning {
        Pruning::DEFAULT
    }
}

/// Each setting's name (as `name:value` pairs use it), its bounds, and the field.
type Field = (&'static str, i32, i32, fn(&mut Pruning) -> &mut i32);

/// The bounds keep every setting meaningful (a divisor is never zero, a depth
/// never negative) without judging what plays well: that is for games.
const FIELDS: [Field; 25] = [
    ("lmr-depth", 1, 64, |p| &mut p.lmr_depth),
    ("lmr-move", 1, 64, |p| &mut p.lmr_move),
    ("lmr-base", -1000, 1000, |p| &mut p.lmr_base),
    ("lmr-div", 10, 10_000, |p| &mut p.lmr_div),
    ("lmr-max", 0, 64, |p| &mut p.lmr_max),
    ("lmr-history", -(1 << 20), 1 << 20, |p| &mut p.lmr_history),
    ("lmp-depth", 0, 64, |p| &mut p.lmp_depth),
    ("lmp-base", 0, 1000, |p| &mut p.lmp_base),
    ("history-prune-depth", 0, 64, |p| &mut p.history_prune_depth),
    ("history-prune-margin", 0, 1 << 20, |p| {
        &mut p.history_prune_margin
    }),
    ("rfp-depth", 0, 64, |p| &mut p.rfp_depth),
    ("rfp-margin", 0, 10_000, |p| &mut p.rfp_margin),
    ("futility-depth", 0, 64, |p| &mut p.futility_depth),
    ("futility-margin", 0, 10_000, |p| &mut p.futility_margin),
    ("probcut-depth", 1, 1000, |p| &mut p.probcut_depth),
    ("probcut-margin", 0, 10_000, |p| &mut p.probcut_margin),
    ("probcut-ratio", 1, 100, |p| &mut p.probcut_ratio),
    ("threat-margin", 0, 10_000, |p| &mut p.threat_margin),
    ("offer-plies", 0, 64, |p| &mut p.offer_plies),
    ("single-reply", 0, 1, |p| &mut p.single_reply),
    ("singular-depth", 0, 64, |p| &mut p.singular_depth),
    ("singular-margin", 0, 10_000, |p| &mut p.singular_margin),
    ("asp-window", 1, 1000, |p| &mut p.aspiration_window),
    ("asp-widening", 1, 1000, |p| &mut p.aspiration_widening),
    ("correction", 0, 400, |p| &mut p.correction),
];

impl Pruning {
    /// These settings with some changed by `name:value` pairs, separated by commas
    /// or spaces (`rfp-margin:80,lmr-div:200`). An empty text changes nothing; an
    /// unknown name or a value out of bounds is refused, naming it.
    pub fn with_changes(mut self, text: &str) -> Result<Pruning, String> {
        for pair in text.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once(':')
                .ok_or_else(|| format!("pruning: expected name:value, not '{pair}'"))?;
            let (_, lo, hi, field) = FIELDS.iter().find(|(n, ..)| *n == name).ok_or_else(|| {
                let names: Vec<&str> = FIELDS.iter().map(|f| f.0).collect();
                format!(
                    "pruning: unknown setting '{name}' (known: {})",
                    names.join(", ")
                )
            })?;
            match value.parse::<i32>() {
                Ok(v) if (*lo..=*hi).contains(&v) => *field(&mut self) = v,
                _ => {
                    return Err(format!(
                        "pruning: {name} must be a whole number from {lo} to {hi}, not '{value}'"
                    ))
                }
            }
        }
        Ok(self)
    }
}

/// Every setting as `name:value` pairs, in the form [`Pruning::with_changes`] reads.
impl fmt::Display for Pruning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut copy = *self;
        for (i, (name, _, _, field)) in FIELDS.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{name}:{}", *field(&mut copy))?;
        }
        Ok(())
    }
}

/// Late-move reductions by depth and move number (both capped at 63).
pub struct Reductions {
    table: Vec<u8>,
}

impl Reductions {
    /// The table of `pruning`'s reduction terms, each entry within its cap.
    #[must_use]
    pub fn new(pruning: &Pruning) -> Reductions {
        let (base, div) = (f64::from(pruning.lmr_base), f64::from(pruning.lmr_div));
        let max = f64::from(pruning.lmr_max);
        let mut table = vec![0u8; 64 * 64];
        for depth in 1..64 {
            for n in 1..64 {
                let r = base / 100.0 + (depth as f64).ln() * (n as f64).ln() / (div / 100.0);
                table[depth * 64 + n] = r.min(max) as u8;
            }
        }
        Reductions { table }
    }

    /// Whether two settings make different tables.
    #[must_use]
    pub fn differ(a: &Pruning, b: &Pruning) -> bool {
        (a.lmr_base, a.lmr_div, a.lmr_max) != (b.lmr_base, b.lmr_div, b.lmr_max)
    }

    #[inline]
    #[must_use]
    pub fn get(&self, depth: i32, move_number: usize) -> i32 {
        i32::from(self.table[(depth.clamp(0, 63) as usize) * 64 + move_number.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_by_name() {
        let text = Pruning::DEFAULT.to_string();
        assert!(text.starts_with("lmr-depth:3,lmr-move:2,"), "{text}");
        assert_eq!(Pruning::DEFAULT.with_changes(&text), Ok(Pruning::DEFAULT));
        let changed = Pruning::DEFAULT
            .with_changes("rfp-margin:80, probcut-margin:12")
            .unwrap();
        assert_eq!(changed.rfp_margin, 80);
        assert_eq!(changed.probcut_margin, 12);
        assert_eq!(
            Pruning {
                rfp_margin: Pruning::DEFAULT.rfp_margin,
                probcut_margin: Pruning::DEFAULT.probcut_margin,
                ..changed
            },
            Pruning::DEFAULT
        );
        assert_eq!(Pruning::DEFAULT.with_changes(""), Ok(Pruning::DEFAULT));
        assert_eq!(
            Pruning::DEFAULT.with_changes(&changed.to_string()),
            Ok(changed)
        );
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let err = Pruning::DEFAULT.with_changes("rfp-margn:80").unwrap_err();
        assert!(
            err.contains("rfp-margn") && err.contains("rfp-margin"),
            "{err}"
        );
        let err = Pruning::DEFAULT.with_changes("lmr-div:0").unwrap_err();
        assert!(
            err.contains("lmr-div") && err.contains("10 to 10000"),
            "{err}"
        );
        let err = Pruning::DEFAULT
            .with_changes("rfp-margin:lots")
            .unwrap_err();
        assert!(err.contains("lots"), "{err}");
        let err = Pruning::DEFAULT.with_changes("rfp-margin=80").unwrap_err();
        assert!(err.contains("name:value"), "{err}");
    }

    #[test]
    fn reductions_grow() {
        let p = Pruning::DEFAULT;
        let r = Reductions::new(&p);
        assert!(r.get(2, 2) <= r.get(10, 20));
        assert_eq!(r.get(1, 1), 0);
    }
}
