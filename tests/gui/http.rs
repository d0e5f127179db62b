//! Just enough HTTP/1.1 for the tests: one request per connection, a JSON or text
//! body back. Both the WebDriver client and the plain-HTTP tests of `kroon gui`
//! speak through it, so the tests need no async runtime.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response: its status and body.
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Sends one request and reads the whole answer.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Reply {
    request_with(addr, method, path, body, &[])
}

/// As [`request`], with extra header lines (`Name: value`).
pub fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[&str],
) -> Reply {
    try_request(addr, method, path, body, headers, Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("{method} {path} at {addr}: {e}"))
}

/// As [`request_with`], with an error instead of a panic, and no longer than `patience`
/// for each read: for probing a server that may not be up yet, or not the one meant.
pub fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[&str],
    patience: Duration,
) -> Result<Reply, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(patience))
        .map_err(|e| e.to_string())?;
    let body = body.unwrap_or("");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .map_err(|e| format!("send: {e}"))?;
    try_read_reply(stream)
}

/// Reads a response (Content-Length, chunked, or to the end of the stream).
pub fn read_reply(stream: TcpStream) -> Reply {
    try_read_reply(stream).unwrap_or_else(|e| panic!("{e}"))
}

/// As [`read_reply`], with an error for a connection that breaks or is no HTTP.
fn try_read_reply(stream: TcpStream) -> Result<Reply, String> {
    let io = |e: std::io::Error| format!("read: {e}");
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(io)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP status line: {line:?}"))?;
    let (mut length, mut chunked) = (None, false);
    loop {
        line.clear();
        reader.read_line(&mut line).map_err(io)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line).map_err(io)?;
            let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).map_err(io)?;
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        reader.read_exact(&mut body).map_err(io)?;
    } else {
        reader.read_to_end(&mut body).map_err(io)?;
    }
    Ok(Reply {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}
