use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    end_quietly_when_the_reader_leaves();
    let cli = kroon::cli::Cli::parse();
    match kroon::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kroon: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A reader that stops early (`kroon perft --depth 9 | head -1`) closes the pipe, and
/// `println!` then panics with a backtrace hint. Nobody wants the rest of the output:
/// end at once, quietly, as Unix tools do. The same for stderr, where `kroon match`
/// writes its progress: `kroon match ... 2>&1 | head -1` closes both.
fn end_quietly_when_the_reader_leaves() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map_or("", String::as_str);
        let to_a_stream = message.starts_with("failed printing to stdout")
            || message.starts_with("failed printing to stderr");
        if to_a_stream && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}
