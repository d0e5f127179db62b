//! `kroon selfplay` and `kroon train`: the learned evaluation's data and fit.

/// `kroon train`: see [`crate::tools::trainer`].
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training files written by `kroon selfplay` (concatenated shards work too).
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<std::path::PathBuf>,
    /// The weights or network file to write (after every epoch).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// What to fit: `patterns` (the learned evaluation's weights) or `network` (the
    /// network evaluation; see --hidden).
    #[arg(long, default_value = "patterns", value_parser = ["patterns", "network"])]
    pub model: String,
    /// The network's first layer: units (a multiple of 16, at most 512).
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// The network's views: 1 (the board as the side to move sees it) or 2 (and as
    /// the other side sees it, from the same first layer: twice the second layer's
    /// inputs, the file's format version 2).
    #[arg(long, default_value_t = 1)]
    pub views: usize,
    /// The network's input weight sets: 1, or 8 (a set for each bucket of
    /// positions: whether each side has a king, and whether 20 or fewer pieces are
    /// on the board; fitted as weights shared by all plus each bucket's own, the
    /// file's format version 3).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// The network's first-layer activation: `clipped` (to 0..1) or `squared` (clipped,
    /// then squared: the file's format version 4). Default: that of --init, else
    /// clipped; a network started from one of the other kind keeps its weights and
    /// learns on from there.
    #[arg(long, value_parser = ["clipped", "squared"])]
    pub activation: Option<String>,
    /// The network's first layer also sums pair inputs: what stands on the two
    /// squares of each diagonal step of the board, the board's local formations
    /// (the file's format version 5). A network started from one without them
    /// gets their weights at zero and scores as before; one started from a
    /// network with them keeps them whether or not this is given.
    #[arg(long)]
    pub pairs: bool,
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Weight of the game's result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Share of the games held out to measure the loss on.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Hold that share out of the last --data file only (the newest round) and train on
    /// the earlier files whole: the loss then measures the positions today's engine plays.
    #[arg(long)]
    pub validate_newest: bool,
    /// Seed of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adam's step size, in hundredths of a man for the patterns (default 0.5), in
    /// the float network's own units for the network (default 0.001).
    #[arg(long)]
    pub learning_rate: Option<f32>,
    /// Positions per step (default 16384 for the patterns, 1024 for the network).
    #[arg(long)]
    pub batch: Option<usize>,
    /// L2 penalty on the pattern weights (on 1.5 M positions even 1e-7 raised the
    /// validation loss; more data is the better cure for rare patterns).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f32,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start from these weights: a weights file for the patterns (default: material
    /// only), a network file for the network (default: random; a network of one view
    /// starts one of two, the other view's weights at zero; of the same width).
    #[arg(long)]
    pub init: Option<std::path::PathBuf>,
    /// The logistic scale K in sigmoid(score / K) (default: fitted to the data).
    #[arg(long)]
    pub scale: Option<f32>,
    /// Fit a position as many times as the games reached it (default: once, with
    /// the mean of their results and scores).
    #[arg(long)]
    pub keep_repeats: bool,
}

pub(super) fn run_train(args: &TrainArgs) -> Result<(), String> {
    use crate::tools::fitting::Model;
    let network = args.model == "network";
    let batch = args.batch.unwrap_or(if network { 1024 } else { 16384 });
    if batch == 0 || !(0.0..=1.0).contains(&args.lambda) {
        return Err("--batch must be at least 1 and --lambda between 0 and 1".into());
    }
    if !network && (args.views != 1 || args.buckets != 1 || args.activation.is_some() || args.pairs)
    {
        return Err(
            "--views, --buckets, --activation and --pairs are the network's (--model network)"
                .into(),
        );
    }
    let model = if network {
        network_model(args)?
    } else {
        let init = args.init.as_deref();
        Model::Patterns {
            init: init.map(crate::eval::weights::Weights::load).transpose()?,
        }
    };
    let config = crate::tools::fitting::TrainConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        model,
        epochs: args.epochs,
        lambda: args.lambda,
        validation: args.validation,
        validate_newest: args.validate_newest,
        seed: args.seed,
        learning_rate: args
            .learning_rate
            .unwrap_or(if network { 0.001 } else { 0.5 }),
        batch,
        l2: args.l2,
        threads: kroon_engine::cores::threads_or_all(args.threads),
        scale: args.scale,
        keep_repeats: args.keep_repeats,
    };
    if network {
        crate::tools::network_trainer::run(&config)
    } else {
        crate::tools::trainer::run(&config)
    }
}

/// `kroon selfplay`: see [`crate::tools::selfplay`].
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The training file; appended to, and a run of the same seed, shard and nodes
    /// resumes where it stopped.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Games of this shard.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes per move (each move draws its budget between 0.75x and 1.25x of it).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..))]
    pub nodes: u32,
    /// Start positions (`FEN [; moves]` lines); default the three-move openings
    /// compiled into Kroon (openings/3-move.fen).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Random moves played after the opening, for variety.
    #[arg(long, default_value_t = 2)]
    pub random_plies: u32,
    /// Seed of the run: games, openings and random moves follow from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This machine's part of the run, `I/N` (games I, I+N, I+2N, ...).
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Games played at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evaluation that plays: `network` (built in, the default), `learned` (the pattern
    /// weights built in), `hand`, or a weights or network file.
    #[arg(long, default_value = kroon_engine::eval::DEFAULT_NAME)]
    pub eval: String,
    /// The other player's evaluation (the same names as --eval): the run's evaluation
    /// plays it instead of itself, White in even games and Black in odd ones, and
    /// both sides' positions are kept. A run against another player is another run;
    /// which player is not written in the file, so give each its own file or seed.
    #[arg(long)]
    pub versus: Option<String>,
    /// Also keep positions where the side to move cannot capture but the other side
    /// can (by default neither side can): the search judges those statically too.
    /// The same games with more records, so another run.
    #[arg(long)]
    pub threats: bool,
    /// Endgame tables (a folder, as `kroon egdb build` writes it): the players probe
    /// them, and a game ends as soon as it has no more pieces than they hold
    /// complete, with their value as its result. The piece count is part of the
    /// run: the same seed with and without tables are two runs.
    #[arg(long)]
    pub tables: Option<std::path::PathBuf>,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// `kroon rescore`: see [`crate::tools::rescore`].
#[derive(clap::Args, Debug)]
pub struct RescoreArgs {
    /// The training file whose positions are scored again.
    #[arg(long)]
    pub data: std::path::PathBuf,
    /// The rescored file: the same blocks with the new scores. A stopped run given
    /// the same --data and --out resumes where it stopped.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Nodes searched for each position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Positions searched at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evaluation that searches (the names of `kroon selfplay --eval`).
    #[arg(long, default_value = kroon_engine::eval::DEFAULT_NAME)]
    pub eval: String,
    /// Endgame tables the searches probe (a folder, as `kroon egdb build` writes it).
    #[arg(long)]
    pub tables: Option<std::path::PathBuf>,
    /// Search only the positions the other player of a `kroon selfplay --versus` run
    /// moved in, with the evaluation given (the run's own, as a rule), and keep the
    /// other records' scores: every label of the file is then one evaluation's.
    /// Records of runs without --versus are kept as they are.
    #[arg(long)]
    pub other_player: bool,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub(super) fn run_rescore(args: &RescoreArgs) -> Result<(), String> {
    let config = crate::tools::rescore::RescoreConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        nodes: args.nodes,
        threads: kroon_engine::cores::threads_or_all(args.threads),
        evaluator: crate::eval::Evaluator::from_name(&args.eval)?,
        tables: match &args.tables {
            Some(dir) => Some(std::sync::Arc::new(complete_tables(dir)?)),
            None => None,
        },
        other_player: args.other_player,
        progress: !args.quiet,
    };
    crate::tools::rescore::run(&config)
}

/// `I/N` with I < N.
fn parse_shard(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("bad --shard '{text}': write I/N with 0 <= I < N, e.g. 3/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<u16>().map_err(|_| bad())?,
        n.trim().parse::<u16>().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

pub(super) fn run_selfplay(args: &SelfplayArgs) -> Result<(), String> {
    let (shard, shards) = parse_shard(&args.shard)?;
    let openings = match &args.openings {
        Some(path) => crate::openings::read_positions(path)?,
        None => crate::openings::parse_file(crate::tools::selfplay::THREE_MOVE)?
            .into_iter()
            .map(|o| o.position)
            .collect(),
    };
    let threads = kroon_engine::cores::threads_or_all(args.threads);
    let config = crate::tools::selfplay::SelfplayConfig {
        out: args.out.clone(),
        games: args.games,
        nodes: args.nodes,
        openings,
        random_plies: args.random_plies,
        seed: args.seed,
        shard,
        shards,
        threads: threads.max(1),
        evaluator: crate::eval::Evaluator::from_name(&args.eval)?,
        threats: args.threats,
        versus: match &args.versus {
            Some(name) => Some(crate::eval::Evaluator::from_name(name)?),
            None => None,
        },
        tables: match &args.tables {
            Some(dir) => Some(std::sync::Arc::new(complete_tables(dir)?)),
            None => None,
        },
        progress: !args.quiet,
    };
    crate::tools::selfplay::run(&config)
}

/// The tables a self-play run ends its games by, or a rescoring probes: complete to
/// some piece count.
fn complete_tables(dir: &std::path::Path) -> Result<crate::egdb::Tables, String> {
    let tables = crate::egdb::Tables::open(dir, crate::egdb::index::MAX_PIECES)?;
    if tables.complete_pieces() < 2 {
        return Err(format!(
            "--tables {}: no complete piece count of endgame tables there (build them with `kroon egdb build --pieces 4 --dir {}`)",
            dir.display(),
            dir.display()
        ));
    }
    eprintln!("kroon: {}", tables.describe());
    Ok(tables)
}

/// The network `kroon train --model network` fits: its shape from the flags, and
/// the network it starts from (`--init`), which must fit inside that shape.
fn network_model(args: &TrainArgs) -> Result<crate::tools::fitting::Model, String> {
    let h = args.hidden;
    if h == 0 || h > 512 || !h.is_multiple_of(16) {
        return Err("--hidden must be a multiple of 16 up to 512".into());
    }
    if !(1..=2).contains(&args.views) {
        return Err("--views must be 1 or 2".into());
    }
    let buckets = crate::eval::network::BUCKETS;
    if args.buckets != 1 && args.buckets != buckets {
        return Err(format!("--buckets must be 1 or {buckets}"));
    }
    let init = match args.init.as_deref() {
        Some(path) => {
            let net = crate::eval::network::Network::load(path)?;
            let name = path.display();
            if net.hidden > h {
                return Err(format!(
                    "--init {name} has {} units; --hidden {h} cannot hold them",
                    net.hidden
                ));
            }
            if net.views > args.views {
                return Err(format!(
                    "--init {name} has {} views; --views {} cannot hold them",
                    net.views, args.views
                ));
            }
            if net.buckets > args.buckets {
                return Err(format!(
                    "--init {name} has {} buckets; --buckets {} cannot hold them",
                    net.buckets, args.buckets
                ));
            }
            Some(net)
        }
        None => None,
    };
    let squared = match args.activation.as_deref() {
        Some(activation) => activation == "squared",
        None => init.as_ref().is_some_and(|net| net.squared),
    };
    Ok(crate::tools::fitting::Model::Network {
        hidden: h,
        views: args.views,
        buckets: args.buckets,
        squared,
        pairs: args.pairs || init.as_ref().is_some_and(|net| net.pairs),
        init,
    })
}
