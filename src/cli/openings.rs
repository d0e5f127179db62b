//! `kroon openings`: its options.

/// `kroon openings` options.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Plies from the initial position (2: every two-move opening).
    #[arg(long)]
    pub plies: u32,
    /// Keep only openings Kroon's search at this depth scores near equality.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// With --depth: the largest score kept, in hundredths of a man either way.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i32).range(0..))]
    pub margin: i32,
    /// With --depth: the smallest score kept, either way. Above zero it makes an
    /// unbalanced set, whose games are decided more often (each opening is played
    /// with both colours, so the edge cancels).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    pub min_margin: i32,
    /// Write here instead of stdout.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

impl OpeningsArgs {
    pub fn config(&self) -> crate::tools::openings_generator::Config {
        crate::tools::openings_generator::Config {
            plies: self.plies,
            balance: self
                .depth
                .map(|depth| crate::tools::openings_generator::ScoreBand {
                    depth,
                    least: self.min_margin,
                    most: self.margin,
                }),
            out: self.out.clone(),
        }
    }
}
