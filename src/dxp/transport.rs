//! DXP over TCP: NUL-terminated frames. Reading copes with a frame split over
//! several reads and with several frames in one read; writing sends each message in
//! a write of its own, spaced out, because some peers (pydraughts) parse one message
//! per socket read and would merge two that arrive together.

use super::message::Message;
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

/// Longest frame accepted: real messages are under 128 bytes (CHAT aside); a peer
/// sending a megabyte without a NUL is broken, and buffering it forever would be a leak.
pub const MAX_FRAME: usize = 4096;

/// Least time between two messages we send with nothing received in between.
pub const SEND_GAP: Duration = Duration::from_millis(50);

/// What one read of the frame stream gives.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// The text of one frame, without the NUL. Not yet checked to be a message.
    Text(String),
    /// A frame too long or not text: the peer is not speaking DXP.
    Garbage(String),
}

/// Splits a byte stream into frames.
pub struct FrameReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Bytes of `buf` already known to hold no NUL, so a slow trickle is not rescanned.
    scanned: usize,
}

impl<R: Read> FrameReader<R> {
    pub fn new(inner: R) -> FrameReader<R> {
        FrameReader {
            inner,
            buf: Vec::new(),
            scanned: 0,
        }
    }

    /// The next frame; `Ok(None)` when the peer closed the connection (an unfinished
    /// frame at that point is dropped).
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        loop {
            if let Some(pos) = self.buf[self.scanned..].iter().position(|&b| b == 0) {
                let end = self.scanned + pos;
                let bytes: Vec<u8> = self.buf.drain(..=end).take(end).collect();
                self.scanned = 0;
                return Ok(Some(match String::from_utf8(bytes) {
                    Ok(text) => Frame::Text(text),
                    Err(e) => Frame::Garbage(format!(
                        "a frame that is not text ({} bytes)",
                        e.as_bytes().len()
                    )),
                }));
            }
            self.scanned = self.buf.len();
            if self.buf.len() > MAX_FRAME {
                let n = self.buf.len();
                self.buf.clear();
                self.scanned = 0;
                return Ok(Some(Frame::Garbage(format!(
                    "{n} bytes without a NUL terminator (a DXP message is under {MAX_FRAME})"
                ))));
            }
            let mut chunk = [0u8; 1024];
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                return Ok(None);
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

/// Writes messages, one frame per write.
pub struct FrameWriter<W> {
    inner: W,
    last_send: Option<Instant>,
    heard_since_send: bool,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(inner: W) -> FrameWriter<W> {
        FrameWriter {
            inner,
            last_send: None,
            heard_since_send: true,
        }
    }

    /// Call when a frame arrives: the peer has read our last message, so the next
    /// one need not wait.
    pub fn heard(&mut self) {
        self.heard_since_send = true;
    }

    /// Sends one message in a single write, first waiting out [`SEND_GAP`] when the
    /// previous message went out just before with no reply since.
    pub fn send(&mut self, msg: &Message) -> io::Result<()> {
        if let (Some(last), false) = (self.last_send, self.heard_since_send) {
            let since = last.elapsed();
            if since < SEND_GAP {
                std::thread::sleep(SEND_GAP - since);
            }
        }
        let mut frame = msg.to_string().into_bytes();
        frame.push(0);
        self.inner.write_all(&frame)?;
        self.inner.flush()?;
        self.last_send = Some(Instant::now());
        self.heard_since_send = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its chunks one read at a time, as a socket might.
    struct Chunks(Vec<Vec<u8>>);

    impl Read for Chunks {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = &mut self.0[0];
            let n = chunk.len().min(out.len());
            out[..n].copy_from_slice(&chunk[..n]);
            chunk.drain(..n);
            if chunk.is_empty() {
                self.0.remove(0);
            }
            Ok(n)
        }
    }

    fn frames(chunks: &[&[u8]]) -> Vec<Frame> {
        let mut r = FrameReader::new(Chunks(chunks.iter().map(|c| c.to_vec()).collect()));
        let mut out = Vec::new();
        while let Some(f) = r.next_frame().unwrap() {
            out.push(f);
        }
        out
    }

    fn text(s: &str) -> Frame {
        Frame::Text(s.into())
    }

    #[test]
    fn several_frames_in_one_read() {
        assert_eq!(
            frames(&[b"E20\0M0012322800\0C hi\0"]),
            vec![text("E20"), text("M0012322800"), text("C hi")]
        );
    }

    #[test]
    fn frame_split_over_reads() {
        assert_eq!(
            frames(&[b"M00", b"1232", b"2800", b"\0E", b"21\0"]),
            vec![text("M0012322800"), text("E21")]
        );
    }

    #[test]
    fn unfinished_frame_at_close_is_dropped() {
        assert_eq!(frames(&[b"E20\0M001"]), vec![text("E20")]);
    }

    #[test]
    fn empty_frame_and_garbage() {
        let long = vec![b'x'; MAX_FRAME + 10];
        let got = frames(&[b"\0", &[0xff, 0xfe, 0], &long]);
        assert_eq!(got[0], text(""));
        assert!(matches!(got[1], Frame::Garbage(_)));
        assert!(matches!(got[2], Frame::Garbage(_)));
    }

    #[test]
    fn each_message_in_its_own_write() {
        #[derive(Default)]
        struct Writes(Vec<Vec<u8>>);
        impl Write for Writes {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.push(b.to_vec());
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut w = FrameWriter::new(Writes::default());
        let start = Instant::now();
        w.send(&Message::Chat("a".into())).unwrap();
        w.send(&Message::Chat("b".into())).unwrap();
        assert!(start.elapsed() >= SEND_GAP);
        assert_eq!(w.inner.0, vec![b"Ca\0".to_vec(), b"Cb\0".to_vec()]);
    }
}
