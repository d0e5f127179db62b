//! The web server of `kroon gui`: the page and its two assets, and a small JSON
//! API over HTTP. Each tab opens a session (`POST /api/session`), follows its state
//! as server-sent events (`GET /api/events?session=N`) and sends its actions
//! (`POST /api/action?session=N`, a JSON object). A session lives as long as its
//! event stream: a heartbeat every second finds a closed tab, and the session then
//! stops its search and ends.
//!
//! Requests are answered on the server's one thread (they are quick: the session
//! answers from memory), except the event streams, which each have a thread.

use super::session::{self, Event, Setup};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, StatusCode};

const INDEX: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/board.js");

/// A stream with nothing to say writes a comment this often, so a closed tab is
/// found.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long an action may wait for its session.
const ACTION_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest request body read (a PDN of a long game is a few KB).
const MAX_BODY: u64 = 1 << 20;

type Sessions = Arc<Mutex<HashMap<u64, Sender<Event>>>>;

/// The server, bound and ready to serve.
pub struct Server {
    http: tiny_http::Server,
    port: u16,
    setup: Setup,
    sessions: Sessions,
    next_id: u64,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: a free port).
    pub fn bind(port: u16, setup: Setup) -> Result<Server, String> {
        let http = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let port = http
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or("the server has no IP address")?;
        Ok(Server {
            http,
            port,
            setup,
            sessions: Arc::default(),
            next_id: 1,
        })
    }

    /// The address to open.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Serves until the process ends.
    pub fn serve(mut self) {
        while let Ok(request) = self.http.recv() {
            self.handle(request);
        }
    }

    fn handle(&mut self, mut request: Request) {
        if let Err(message) = self.check_origin(&request) {
            return reply(request, 403, &json!({ "error": message }));
        }
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = request.method().clone();
        match (method, path) {
            (Method::Get, "/" | "/index.html") => asset(request, INDEX, "text/html"),
            (Method::Get, "/style.css") => asset(request, STYLE, "text/css"),
            (Method::Get, "/board.js") => asset(request, SCRIPT, "text/javascript"),
            (Method::Post, "/api/session") => {
                let id = self.open_session();
                reply(request, 200, &json!({ "session": id }));
            }
            (Method::Get, "/api/events") => match self.session(query) {
                Ok((id, events)) => watch(request, id, events),
                Err(message) => reply(request, 404, &json!({ "error": message })),
            },
            (Method::Post, "/api/action") => {
                let answer = self
                    .session(query)
                    .map_err(|m| (404, m))
                    .and_then(|(_, events)| {
                        let action = read_json(&mut request).map_err(|m| (400, m))?;
                        ask(&events, action).map_err(|m| (400, m))
                    });
                match answer {
                    Ok(value) => reply(request, 200, &value),
                    Err((status, message)) => reply(request, status, &json!({ "error": message })),
                }
            }
            (_, "/" | "/index.html" | "/style.css" | "/board.js" | "/api/events") => reply(
                request,
                405,
                &json!({ "error": "that page is only read (GET)" }),
            ),
            (_, "/api/session" | "/api/action") => reply(
                request,
                405,
                &json!({ "error": "actions are sent with POST" }),
            ),
            _ => reply(
                request,
                404,
                &json!({ "error": format!("there is no page {path}") }),
            ),
        }
    }

    /// Only this server's own page may send actions: a page of another site that
    /// the browser also shows must not play on the board (or start an engine).
    fn check_origin(&self, request: &Request) -> Result<(), String> {
        let own = [
            format!("http://127.0.0.1:{}", self.port),
            format!("http://localhost:{}", self.port),
        ];
        let origin = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Origin"))
            .map(|h| h.value.as_str().to_string());
        match origin {
            Some(origin) if !own.contains(&origin) => {
                Err(format!("requests from {origin} are not accepted"))
            }
            _ => Ok(()),
        }
    }

    fn open_session(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let (events, inbox) = mpsc::channel();
        self.sessions
            .lock()
            .expect("no session panics holding the lock")
            .insert(id, events.clone());
        let sessions = Arc::clone(&self.sessions);
        let setup = self.setup.clone();
        std::thread::Builder::new()
            .name(format!("kroon-gui-session-{id}"))
            .spawn(move || {
                session::run(setup, events, inbox);
                if let Ok(mut sessions) = sessions.lock() {
                    sessions.remove(&id);
                }
                log::info!("session {id} ended");
            })
            .expect("the system can start a thread");
        id
    }

    /// The session a query's `session=N` names.
    fn session(&self, query: &str) -> Result<(u64, Sender<Event>), String> {
        let id = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("session="))
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or("the request needs ?session=N (a number from POST /api/session)")?;
        let sessions = self
            .sessions
            .lock()
            .expect("no session panics holding the lock");
        sessions
            .get(&id)
            .map(|events| (id, events.clone()))
            .ok_or_else(|| format!("there is no session {id} (it ended: reload the page)"))
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn asset(request: Request, body: &'static str, kind: &str) {
    let response = Response::from_string(body)
        .with_header(header("Content-Type", &format!("{kind}; charset=utf-8")))
        .with_header(header("Cache-Control", "no-cache"));
    let _ = request.respond(response);
}

fn reply(request: Request, status: u16, body: &Value) {
    let response = Response::from_string(body.to_string())
        .with_status_code(StatusCode(status))
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"));
    let _ = request.respond(response);
}

/// The request's body as a JSON object.
fn read_json(request: &mut Request) -> Result<Value, String> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| format!("the request body was not read: {e}"))?;
    if body.len() as u64 > MAX_BODY {
        return Err(format!("the request body is over {MAX_BODY} bytes"));
    }
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| format!("the request body is not JSON: {e}"))?;
    if !value.is_object() {
        return Err("the request body must be a JSON object".into());
    }
    Ok(value)
}

/// Hands an action to its session and waits for the answer.
fn ask(events: &Sender<Event>, action: Value) -> Result<Value, String> {
    let (answer, reply) = mpsc::channel();
    events
        .send(Event::Action(action, answer))
        .map_err(|_| "the session has ended: reload the page".to_string())?;
    match reply.recv_timeout(ACTION_TIMEOUT) {
        Ok(result) => result,
        Err(_) => Err("the session did not answer".into()),
    }
}

/// Streams a session's state as server-sent events until the tab goes away, then
/// tells the session.
fn watch(request: Request, id: u64, events: Sender<Event>) {
    let (watcher, states) = mpsc::channel::<String>();
    if events.send(Event::Watch(watcher)).is_err() {
        return reply(request, 404, &json!({ "error": "the session has ended" }));
    }
    std::thread::Builder::new()
        .name(format!("kroon-gui-events-{id}"))
        .spawn(move || {
            let mut out = request.into_writer();
            let mut write = |text: &str| out.write_all(text.as_bytes()).and_then(|()| out.flush());
            let mut open = write(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                 Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            )
            .is_ok();
            while open {
                let text = match states.recv_timeout(HEARTBEAT) {
                    Ok(state) => format!("data: {state}\n\n"),
                    Err(RecvTimeoutError::Timeout) => ": heartbeat\n\n".to_string(),
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                open = write(&text).is_ok();
            }
            drop(states);
            let _ = events.send(Event::Left);
        })
        .expect("the system can start a thread");
}
