//! `kroon gui`: a draughts board in the browser, for playing and analysing with
//! Kroon or a Hub engine. A small web server on 127.0.0.1 serves one page whose
//! HTML, CSS and JavaScript are compiled in (no build step, no network); the page
//! draws the board and sends the player's actions, and the rules, the game record,
//! the clocks and the engine all stay here, in one session per tab.
//!
//! - [`server`]: HTTP, the JSON API and the event streams;
//! - [`session`]: one tab's game, players, clock and analysis;
//! - [`engine_driver`]: Kroon's own engine or a Hub engine process, driven alike.

pub mod engine_driver;
pub mod server;
pub mod session;

pub use session::Setup;

/// How `kroon gui` runs.
#[derive(Clone)]
pub struct Config {
    /// 0: a free port.
    pub port: u16,
    pub setup: Setup,
    /// Whether to open the page in the system's browser.
    pub open_browser: bool,
}

/// Serves the board until the process is ended.
pub fn run(config: &Config) -> Result<(), String> {
    let server = server::Server::bind(config.port, config.setup.clone())?;
    let url = server.url();
    eprintln!("kroon gui: open {url} in a browser (Ctrl-C ends)");
    config.setup.kroon.endgame.say_if_missing();
    if config.open_browser {
        open_browser(&url);
    }
    server.serve();
    Ok(())
}

/// Asks the system to show `url` in its browser, where it has a way to; nothing
/// happens (but a line on stderr) where it has none.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        Some("open")
    } else if cfg!(target_os = "windows") {
        Some("explorer")
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    {
        // Without a display, xdg-open would start a text browser in this terminal.
        Some("xdg-open")
    } else {
        None
    };
    let started = opener.is_some_and(|program| {
        std::process::Command::new(program)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    });
    if !started {
        eprintln!("kroon gui: no browser was opened here; open the address above yourself");
    }
}
