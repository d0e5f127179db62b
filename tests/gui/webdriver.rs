//! A small W3C WebDriver client for Debian's chromium and chromedriver: start
//! them, open a page, find and click elements, type, run a script, take a
//! screenshot. Written over the tests' own HTTP rather than with a WebDriver crate,
//! which would bring an async runtime for a dozen plain requests.

use super::http::{request, try_request};
use crate::common::{Launch, Lines, Running, PATIENCE};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The key W3C WebDriver names element references by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Starts chromedriver on a port it chooses itself (`--port=0`), which it names on
/// its stdout ("ChromeDriver was started successfully on port N."), and waits
/// until its own `GET /status` says it is ready. A port the test chose beforehand
/// (bound and let go) could be taken by another process before chromedriver
/// bound it. Like every program the tests start, it (and so the browser) gets a
/// home of its own.
fn start_driver(driver: &Path) -> (Running, SocketAddr) {
    let mut child = Launch::new(driver)
        .arg("--port=0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    // Read to its end: chromedriver goes on writing there.
    let stdout = Lines::read(child.stdout.take().expect("piped stdout"));
    let port_in = |line: &str| {
        line.split_once("started successfully on port ")
            .and_then(|(_, rest)| rest.trim_end_matches('.').trim().parse::<u16>().ok())
            .filter(|&port| port != 0)
    };
    let seen = stdout
        .try_until(PATIENCE, |line| port_in(line).is_some())
        .unwrap_or_else(|e| panic!("chromedriver named no port: {e}"));
    let port = port_in(seen.last().unwrap()).unwrap();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + PATIENCE;
    let mut last = String::new();
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("chromedriver on port {port} exited ({status}): {last}");
        }
        match try_request(addr, "GET", "/status", None, &[], Duration::from_secs(2)) {
            Ok(reply)
                if reply.status == 200
                    && serde_json::from_str::<Value>(&reply.body)
                        .is_ok_and(|v| v["value"]["ready"] == json!(true)) =>
            {
                return (child, addr);
            }
            Ok(reply) => last = format!("{} {}", reply.status, reply.body),
            Err(e) => last = e,
        }
        assert!(
            Instant::now() < deadline,
            "chromedriver on port {port} not ready in {PATIENCE:?}: {last}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A browser under WebDriver: chromedriver as a child process and one session.
pub struct Browser {
    /// Ended when dropped.
    _driver: Running,
    addr: SocketAddr,
    session: String,
}

/// How big the page is.
#[derive(Clone, Copy)]
pub enum Viewport {
    Desktop,
    /// A phone's width, as Chrome's mobile emulation lays it out.
    Phone,
}

impl Browser {
    /// Chromium under chromedriver, headless; None (with a line saying why the
    /// test is skipped) where they are not installed, except in CI, where they
    /// must be.
    pub fn start(test: &str, viewport: Viewport) -> Option<Browser> {
        let driver = on_path(&["chromedriver"]);
        let browser = on_path(&["chromium", "chromium-browser", "google-chrome"]);
        let (Some(driver), Some(browser)) = (driver, browser) else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI must run the browser tests: install chromium and chromium-driver"
            );
            eprintln!(
                "SKIPPED {test}: no chromium and chromedriver on PATH \
                 (apt-get install chromium chromium-driver to run the browser tests)"
            );
            return None;
        };
        let (child, addr) = start_driver(&driver);
        let mut browser_args = vec![
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
        ];
        let mut options = json!({ "binary": browser.to_string_lossy() });
        match viewport {
            Viewport::Desktop => browser_args.push("--window-size=1280,900"),
            Viewport::Phone => {
                options["mobileEmulation"] = json!({
                    "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 2.0, "touch": true }
                });
            }
        }
        options["args"] = json!(browser_args);
        let capabilities = json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": options,
            }}
        });
        let mut this = Browser {
            _driver: child,
            addr,
            session: String::new(),
        };
        let reply = this.call("POST", "/session", Some(capabilities));
        this.session = reply["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {reply}"))
            .to_string();
        Some(this)
    }

    /// One WebDriver command; its `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"))
    }

    /// One WebDriver command; its `value`, or the driver's error.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let body = body.map(|b| b.to_string());
        let reply = request(self.addr, method, path, body.as_deref());
        let value: Value = reply.json();
        if reply.status == 200 {
            Ok(value["value"].clone())
        } else {
            Err(format!("{} {}", reply.status, value["value"]["message"]))
        }
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Opens a new tab and shows it.
    pub fn new_tab(&self) {
        let tab = self.session_call("POST", "/window/new", Some(json!({ "type": "tab" })));
        let handle = tab["handle"].clone();
        self.session_call("POST", "/window", Some(json!({ "handle": handle })));
    }

    /// Reloads the page.
    pub fn reload(&self) {
        self.session_call("POST", "/refresh", Some(json!({})));
    }

    /// Runs JavaScript in the page and returns its value.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// The page's state as the server last sent it (Null before the first).
    pub fn state(&self) -> Value {
        self.script(
            "return window.kroon ? window.kroon.state : null;",
            json!([]),
        )
    }

    /// Waits until `check` holds for the page's state.
    pub fn wait_for_state(&self, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let state = self.state();
            if !state.is_null() && check(&state) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "waited in vain for {what}; the state: {state}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the script returns something truthy, and returns it.
    pub fn wait_for(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let value = self.script(script, json!([]));
            if !(value.is_null() || value == json!(false) || value == json!("")) {
                return value;
            }
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn find(&self, css: &str) -> String {
        let found = self.session_call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Clicks the element `css` selects, as a user does (the driver scrolls it
    /// into view and refuses a hidden one). An element the page redrew between
    /// finding and clicking (a live PV) is found again, as a user clicks again.
    pub fn click(&self, css: &str) {
        for _ in 0..10 {
            let id = self.find(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            match self.try_call("POST", &path, Some(json!({}))) {
                Ok(_) => return,
                Err(e) if e.contains("stale element") => continue,
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("click {css}: the element never stayed long enough");
    }

    /// Drags with the mouse from one element to another.
    pub fn drag(&self, from: &str, to: &str) {
        let (from, to) = (self.find(from), self.find(to));
        let step = |id: &str| json!({ "type": "pointerMove", "origin": { ELEMENT: id }, "x": 0, "y": 0, "duration": 100 });
        let actions = json!({ "actions": [{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": [
                step(&from),
                { "type": "pointerDown", "button": 0 },
                step(&to),
                { "type": "pointerUp", "button": 0 },
            ],
        }]});
        self.session_call("POST", "/actions", Some(actions));
        self.session_call("DELETE", "/actions", None);
    }

    /// Clicks a square of the board.
    pub fn click_square(&self, square: u8) {
        self.click(&format!("#board [data-square=\"{square}\"]"));
    }

    /// Empties a text field and types `text` into it.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.session_call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.session_call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// The element's text.
    pub fn text(&self, css: &str) -> String {
        self.script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
            json!([css]),
        )
        .as_str()
        .unwrap_or_else(|| panic!("no element {css}"))
        .to_string()
    }

    /// Saves a screenshot of the page as `target/gui-screenshots/NAME.png`.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.session_call("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().expect("base64 text"));
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
            PathBuf::from,
        );
        let dir = target.join("gui-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = std::panic::catch_unwind(|| request(self.addr, "DELETE", &path, None));
        }
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= d << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGk="), b"hi");
    assert_eq!(base64_decode("YWJj"), b"abc");
}
