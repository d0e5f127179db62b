//! The DXP front end (DamExchange Protocol): plays games against another program
//! over TCP, as server or client, initiator or follower. It only translates between
//! the peer and the [`Engine`](crate::engine::Engine): moves are checked by the
//! rules core, the search is the engine's, the game record is
//! [`Game`](crate::game::Game)'s.
//!
//! Each connection runs one loop over events: frames from a reader thread, the
//! peer closing, and the engine saying that its search ended. So a peer that speaks
//! while we think, or vanishes, is noticed at once instead of after the search, and
//! our move goes out as soon as it is found. GAMEREQ's time becomes a
//! [`crate::play::Clock`]; a game's result is a [`crate::play::Outcome`].
//!
//! This file listens or connects and hands each connection to a session; the
//! parts are [`message`] (the codec), [`transport`] (the framing), `config` (what
//! a run is told), `session` (one connection's loop), `play` (a game under way)
//! and `series_score` (the running score of a series).

mod config;
pub mod message;
mod play;
mod series_score;
mod session;
pub mod transport;

pub use config::{listen_address, Config, Endpoint, Series, DEFAULT_PORT};
use series_score::SeriesScore;
use session::Session;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// How long `--connect` keeps retrying while the other program starts up.
const CONNECT_RETRY: Duration = Duration::from_secs(10);

/// Plays over DXP as configured. A listening follower serves connection after
/// connection and only returns on an error binding its address.
pub fn run(config: &Config) -> Result<(), String> {
    let mut engine = config.engine.engine();
    let mut score = SeriesScore::default();
    match &config.endpoint {
        Endpoint::Connect(addr) => {
            let stream = connect(addr)?;
            config.engine.endgame.say_if_missing();
            Session::new(stream, &mut engine, config, &mut score)?.run();
            Ok(())
        }
        Endpoint::Listen(addr) => {
            let listener =
                TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
            // The address bound, which names the port the system chose for port 0:
            // the peer, or whatever starts it, needs to know where to connect.
            let addr = listener
                .local_addr()
                .map_or_else(|_| addr.clone(), |a| a.to_string());
            eprintln!("listening on {addr}");
            config.engine.endgame.say_if_missing();
            for stream in listener.incoming() {
                let stream = match stream {
                    Ok(s) => s,
                    Err(e) => {
                        log::warn!("accepting a connection failed: {e}");
                        continue;
                    }
                };
                match Session::new(stream, &mut engine, config, &mut score) {
                    Ok(session) => session.run(),
                    Err(e) => log::warn!("{e}"),
                }
                // An initiator's series is over once its peer is gone; a follower
                // waits for the next peer.
                if config.series.is_some() {
                    break;
                }
                log::info!("listening on {addr} again");
            }
            Ok(())
        }
    }
}

fn connect(addr: &str) -> Result<TcpStream, String> {
    let started = Instant::now();
    loop {
        let attempt = addr
            .to_socket_addrs()
            .map_err(|e| format!("bad address {addr}: {e}"))?
            .find_map(|a| TcpStream::connect(a).ok());
        match attempt {
            Some(stream) => return Ok(stream),
            None if started.elapsed() < CONNECT_RETRY => {
                std::thread::sleep(Duration::from_millis(100));
            }
            None => return Err(format!("cannot connect to {addr}")),
        }
    }
}
