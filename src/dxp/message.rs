//! The DXP message codec: one [`Message`] value <-> the ASCII text of one frame
//! (without its NUL terminator). No I/O here; the TCP framing is in
//! [`super::transport`].
//!
//! ```
//! use kroon::dxp::message::{EndReason, Message};
//!
//! let msg: Message = "E30".parse().unwrap();
//! assert_eq!(msg, Message::GameEnd { reason: EndReason::IWin, stop: false });
//! assert_eq!(msg.to_string(), "E30");
//! assert!("M00123228".parse::<Message>().is_err());
//! ```

use crate::board::{Position, Side, Square};
use crate::time_control::TimeControl;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Width of the name fields of GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;

/// The only protocol version there is.
pub const VERSION: u8 = 1;

/// GAMEREQ's thinking time. The protocol has whole minutes in three digits; Moby Dam
/// also reads a fraction that fits the three characters (`0.5`, `.25`, `2.5`), the
/// only way to propose a game shorter than a minute, so Kroon reads and writes those
/// too. Kept in hundredths of a minute, the finest the field can say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Minutes(u32);

impl Minutes {
    /// No clock (`000`).
    pub const ZERO: Minutes = Minutes(0);

    /// Whole minutes, at most 999 (the field's three digits).
    #[must_use]
    pub fn whole(minutes: u16) -> Minutes {
        Minutes(u32::from(minutes.min(999)) * 100)
    }

    /// The longest time the field can state that is not longer than `seconds`: an
    /// engine told less than it has keeps a reserve, one told more loses on time.
    #[must_use]
    pub fn at_most(seconds: f64) -> Minutes {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Minutes::ZERO;
        }
        // The small addend keeps 30 s from becoming 49.999.. hundredths.
        let hundredths = (seconds / 60.0 * 100.0 + 1e-6).floor().min(99_900.0) as u32;
        Minutes(match hundredths {
            0..=99 => hundredths,
            100..=999 => hundredths / 10 * 10,
            _ => hundredths / 100 * 100,
        })
    }

    /// The time in seconds.
    #[must_use]
    pub fn seconds(self) -> f64 {
        f64::from(self.0) * 0.6
    }

    #[must_use]
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Whether the field holds whole minutes, as every DXP program reads them.
    #[must_use]
    pub fn is_whole(self) -> bool {
        self.0.is_multiple_of(100)
    }

    /// The three characters of the field: `005`, `0.5`, `.25`, `2.5`. A value
    /// [`Minutes::at_most`] did not make is cut to what fits.
    fn field(self) -> String {
        let h = self.0;
        match h {
            _ if h.is_multiple_of(100) || h >= 1000 => format!("{:03}", (h / 100).min(999)),
            0..=99 if h.is_multiple_of(10) => format!("0.{}", h / 10),
            0..=99 => format!(".{h:02}"),
            _ => format!("{}.{}", h / 100, h / 10 % 10),
        }
    }

    /// Reads the field: three digits, or a decimal fraction (Moby Dam's extension).
    fn parse_field(field: &str) -> Option<Minutes> {
        if field.bytes().all(|b| b.is_ascii_digit()) {
            return field.parse::<u16>().ok().map(Minutes::whole);
        }
        let valid = field.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && field.bytes().filter(|&b| b == b'.').count() == 1
            && field != ".";
        let value = field.parse::<f64>().ok().filter(|_| valid)?;
        Some(Minutes::at_most(value * 60.0))
    }
}

impl fmt::Display for Minutes {
    /// Minutes as a person writes them: `5`, `0.5`, `0.25`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_whole() {
            write!(f, "{}", self.0 / 100)
        } else {
            let text = format!("{}.{:02}", self.0 / 100, self.0 % 100);
            f.write_str(text.trim_end_matches('0'))
        }
    }
}

/// The time control GAMEREQ's thinking time and number of moves agree on: the time
/// for the game (`moves` 0) or for each so many moves, without increment. None for
/// no clock at all (time `000`).
#[must_use]
pub fn time_control(minutes: Minutes, moves: u16) -> Option<TimeControl> {
    (!minutes.is_zero()).then(|| TimeControl::Clock {
        time: Duration::from_secs_f64(minutes.seconds()),
        increment: Duration::ZERO,
        moves: (moves > 0).then_some(u32::from(moves)),
    })
}

/// GAMEREQ's thinking time and number of moves for a time control: DXP has a clock
/// of minutes for the game, or for each so many moves, and nothing else. A time the
/// field cannot state exactly is rounded down, so the engine keeps a reserve.
pub fn gamereq_time(control: &TimeControl) -> Result<(Minutes, u16), String> {
    let TimeControl::Clock {
        time,
        increment,
        moves,
    } = *control
    else {
        return Err("DXP engines play on a clock: give --tc SECONDS or --tc MOVES/SECONDS".into());
    };
    if !increment.is_zero() {
        return Err("DXP has no increment: write the clock as SECONDS or MOVES/SECONDS".into());
    }
    let moves = u16::try_from(moves.unwrap_or(0))
        .ok()
        .filter(|&m| m <= 999)
        .ok_or("DXP counts at most 999 moves per period")?;
    let seconds = time.as_secs_f64();
    let minutes = Minutes::at_most(seconds);
    if minutes.is_zero() {
        return Err("DXP's clock needs at least 0.6 seconds (0.01 minutes)".into());
    }
    if minutes.seconds() < seconds - 1e-6 {
        log::warn!(
            "DXP engines are told {minutes} minutes, as near as GAMEREQ can say {seconds} s"
        );
    }
    if !minutes.is_whole() {
        log::warn!(
            "GAMEREQ's time of {minutes} minutes is a fraction, which Moby Dam reads but \
             programs that read whole minutes only (Scan 2.0) take as 0"
        );
    }
    Ok((minutes, moves))
}

/// A GAMEACC's answer to a GAMEREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcceptCode {
    Accepted,
    /// Refused: the version is not supported.
    BadVersion,
    /// Refused: not this game (another may be accepted).
    NotThisGame,
    /// Refused: no games at all.
    NoGames,
}

/// GAMEEND's reason, from the sender's view: the play layer's, with its codes.
pub use crate::play::EndReason;

/// A BACKACC's answer to a BACKREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCode {
    Accepted,
    NotSupported,
    /// Refused: the sender wants to play on.
    PlayOn,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: the initiator proposes a game.
    GameReq {
        /// Kept as sent so a follower can refuse an unknown version with the right code.
        version: u8,
        initiator: String,
        follower_side: Side,
        /// Thinking time for each player (0: no clock).
        minutes: Minutes,
        /// Moves in that time (0: the whole game).
        moves: u16,
        /// `None`: the initial position (`A`); otherwise the given one (`B`).
        start: Option<Position>,
    },
    /// `A`: the follower answers a GAMEREQ.
    GameAcc { follower: String, code: AcceptCode },
    /// `M`: a move. Captured squares in any order.
    Move {
        /// Time spent on the move, in seconds (0-9999).
        seconds: u16,
        from: Square,
        to: Square,
        captured: Vec<Square>,
    },
    /// `E`: the game is over (or the sender stops it).
    GameEnd {
        reason: EndReason,
        /// The sender wants no further game in this session.
        stop: bool,
    },
    /// `C`: free text.
    Chat(String),
    /// `B`: take moves back to this move number with this side to move.
    BackReq { move_number: u16, side: Side },
    /// `K`: the answer to a BACKREQ.
    BackAcc { code: BackCode },
}

/// Why a frame is not a message. `kind` is the type letter when there was one, so a
/// session can answer a broken GAMEREQ with a refusal and a broken MOVE with a GAMEEND.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: Option<char>,
    pub detail: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Some(k) => write!(f, "bad DXP message '{k}': {}", self.detail),
            None => write!(f, "bad DXP message: {}", self.detail),
        }
    }
}

impl std::error::Error for DecodeError {}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// A name field: ASCII only (other characters would break the fixed widths),
/// cut or space-padded to the width.
fn name_field(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(NAME_WIDTH)
        .collect();
    while out.len() < NAME_WIDTH {
        out.push(' ');
    }
    out
}

impl fmt::Display for Message {
    /// The frame text, without the NUL terminator.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::GameReq {
                version,
                initiator,
                follower_side,
                minutes,
                moves,
                start,
            } => {
                write!(
                    f,
                    "R{:02}{}{}{}{:03}",
                    version.min(&99),
                    name_field(initiator),
                    side_letter(*follower_side),
                    minutes.field(),
                    moves.min(&999)
                )?;
                match start {
                    None => f.write_str("A"),
                    Some(pos) => write!(f, "B{}", pos.to_dxp()),
                }
            }
            Message::GameAcc { follower, code } => {
                let code = match code {
                    AcceptCode::Accepted => 0,
                    AcceptCode::BadVersion => 1,
                    AcceptCode::NotThisGame => 2,
                    AcceptCode::NoGames => 3,
                };
                write!(f, "A{}{code}", name_field(follower))
            }
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                write!(
                    f,
                    "M{:04}{:02}{:02}{:02}",
                    seconds.min(&9999),
                    from.number(),
                    to.number(),
                    captured.len()
                )?;
                for sq in captured {
                    write!(f, "{:02}", sq.number())?;
                }
                Ok(())
            }
            Message::GameEnd { reason, stop } => {
                write!(f, "E{}{}", reason.code(), u8::from(*stop))
            }
            // A NUL would end the frame early.
            Message::Chat(text) => write!(f, "C{}", text.replace('\0', " ")),
            Message::BackReq { move_number, side } => {
                write!(f, "B{:03}{}", move_number.min(&999), side_letter(*side))
            }
            Message::BackAcc { code } => {
                let code = match code {
                    BackCode::Accepted => 0,
                    BackCode::NotSupported => 1,
                    BackCode::PlayOn => 2,
                };
                write!(f, "K{code}")
            }
        }
    }
}

/// Reads the fixed-width fields of one message, left to right.
struct Fields<'a> {
    kind: char,
    text: &'a str,
    at: usize,
}

impl Fields<'_> {
    /// GAMEREQ's fields.
    fn game_req(&mut self) -> Result<Message, DecodeError> {
        let version = self.number(2, "version")?;
        let initiator = self
            .take(NAME_WIDTH, "initiator name")?
            .trim_end()
            .to_string();
        let follower_side = self.side("follower colour")?;
        let field = self.take(3, "thinking time")?;
        let minutes = Minutes::parse_field(field)
            .ok_or_else(|| self.error(format!("thinking time '{field}' is not minutes")))?;
        let moves = self.number(3, "number of moves")?;
        let start = match self.take(1, "start position")? {
            "A" => None,
            "B" => {
                let board = self.take(51, "colour to move and 50 squares")?;
                Some(
                    Position::from_dxp(board)
                        .map_err(|e| self.error(format!("start position: {e}")))?,
                )
            }
            other => return Err(self.error(format!("start position is '{other}', not A or B"))),
        };
        Ok(Message::GameReq {
            version: u8::try_from(version).unwrap_or(u8::MAX),
            initiator,
            follower_side,
            minutes,
            moves,
            start,
        })
    }

    /// MOVE's fields.
    fn move_fields(&mut self) -> Result<Message, DecodeError> {
        let seconds = self.number(4, "time")?;
        let from = self.square("from square")?;
        let to = self.square("to square")?;
        let count = self.number(2, "number captured")?;
        if count > 20 {
            return Err(self.error(format!("{count} captured pieces (at most 20 exist)")));
        }
        let captured = (0..count)
            .map(|i| self.square(&format!("captured square {}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Message::Move {
            seconds,
            from,
            to,
            captured,
        })
    }
}

impl<'a> Fields<'a> {
    fn error(&self, detail: impl Into<String>) -> DecodeError {
        DecodeError {
            kind: Some(self.kind),
            detail: detail.into(),
        }
    }

    fn take(&mut self, width: usize, what: &str) -> Result<&'a str, DecodeError> {
        let field = self.text.get(self.at..self.at + width).ok_or_else(|| {
            self.error(format!(
                "too short: {what} expected at characters {}-{} of {}",
                self.at + 1,
                self.at + width,
                self.text.len()
            ))
        })?;
        self.at += width;
        Ok(field)
    }

    fn number(&mut self, width: usize, what: &str) -> Result<u16, DecodeError> {
        let field = self.take(width, what)?;
        if !field.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(format!("{what} '{field}' is not {width} digits")));
        }
        field
            .parse()
            .map_err(|_| self.error(format!("{what} '{field}' is out of range")))
    }

    fn square(&mut self, what: &str) -> Result<Square, DecodeError> {
        let n = self.number(2, what)?;
        u8::try_from(n)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| self.error(format!("{what} {n} is not a square 1-50")))
    }

    fn side(&mut self, what: &str) -> Result<Side, DecodeError> {
        match self.take(1, what)? {
            "W" => Ok(Side::White),
            "Z" => Ok(Side::Black),
            other => Err(self.error(format!("{what} is '{other}', not W or Z"))),
        }
    }

    fn code(&mut self, what: &str, max: u16) -> Result<u16, DecodeError> {
        let n = self.number(1, what)?;
        if n > max {
            return Err(self.error(format!("{what} {n} is not 0-{max}")));
        }
        Ok(n)
    }

    /// Nothing may follow the last field: a longer message means the two programs
    /// disagree about the format, and guessing would misread moves.
    fn end(&self) -> Result<(), DecodeError> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            Ok(())
        } else {
            Err(self.error(format!("unexpected text after the last field: '{rest}'")))
        }
    }
}

impl FromStr for Message {
    type Err = DecodeError;

    /// Parses one frame's text (without the NUL). Trailing whitespace (a CR or LF some
    /// programs add) is ignored except in CHAT.
    fn from_str(text: &str) -> Result<Message, DecodeError> {
        let kind = text.chars().next().ok_or(DecodeError {
            kind: None,
            detail: "empty message".into(),
        })?;
        if !text.is_ascii() {
            return Err(DecodeError {
                kind: Some(kind),
                detail: "not ASCII text".into(),
            });
        }
        if kind == 'C' {
            return Ok(Message::Chat(text[1..].to_string()));
        }
        let mut f = Fields {
            kind,
            text: text.trim_end(),
            at: 1,
        };
        let msg = match kind {
            'R' => f.game_req()?,
            'A' => {
                let follower = f.take(NAME_WIDTH, "follower name")?.trim_end().to_string();
                let code = match f.code("acceptance code", 3)? {
                    0 => AcceptCode::Accepted,
                    1 => AcceptCode::BadVersion,
                    2 => AcceptCode::NotThisGame,
                    _ => AcceptCode::NoGames,
                };
                Message::GameAcc { follower, code }
            }
            'M' => f.move_fields()?,
            'E' => {
                let reason = EndReason::from_code(f.code("reason", 3)? as u8);
                let stop = f.code("stop code", 1)? == 1;
                Message::GameEnd { reason, stop }
            }
            'B' => {
                let move_number = f.number(3, "move number")?;
                let side = f.side("colour to move")?;
                Message::BackReq { move_number, side }
            }
            'K' => {
                let code = match f.code("acceptance code", 2)? {
                    0 => BackCode::Accepted,
                    1 => BackCode::NotSupported,
                    _ => BackCode::PlayOn,
                };
                Message::BackAcc { code }
            }
            other => return Err(f.error(format!("unknown message type '{other}'"))),
        };
        f.end()?;
        Ok(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamereq_times_are_minutes_without_increment() {
        let dxp = |text: &str| gamereq_time(&text.parse().unwrap());
        assert_eq!(dxp("60").unwrap(), (Minutes::whole(1), 0));
        assert_eq!(dxp("75/300").unwrap(), (Minutes::whole(5), 75));
        assert_eq!(dxp("30").unwrap(), (Minutes::at_most(30.0), 0));
        assert!(dxp("60+1").unwrap_err().contains("increment"));
        assert!(dxp("1000/60").unwrap_err().contains("999"));
        assert!(dxp("0.5").unwrap_err().contains("0.6"));
        assert!(gamereq_time(&TimeControl::Depth(3))
            .unwrap_err()
            .contains("--tc"));
        for text in ["60", "75/300", "30"] {
            let (minutes, moves) = dxp(text).unwrap();
            assert_eq!(time_control(minutes, moves), Some(text.parse().unwrap()));
        }
        assert_eq!(time_control(Minutes::ZERO, 40), None);
    }

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    fn round_trip(msg: Message) -> String {
        let text = msg.to_string();
        assert!(text.is_ascii() && !text.contains('\0'), "{text:?}");
        let back: Message = text
            .parse()
            .unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"));
        assert_eq!(back, msg, "round trip of {text:?}");
        text
    }

    #[test]
    fn gamereq_initial_position() {
        let text = round_trip(Message::GameReq {
            version: 1,
            initiator: "Kroon".into(),
            follower_side: Side::Black,
            minutes: Minutes::whole(5),
            moves: 0,
            start: None,
        });
        assert_eq!(text, format!("R01Kroon{}Z005000A", " ".repeat(27)));
        assert_eq!(text.len(), 43);
    }

    #[test]
    fn gamereq_given_position() {
        let pos = Position::from_fen("B:W28,K33,45:B7,K19,22").unwrap();
        let text = round_trip(Message::GameReq {
            version: 1,
            initiator: "DXP Client".into(),
            follower_side: Side::White,
            minutes: Minutes::ZERO,
            moves: 0,
            start: Some(pos),
        });
        assert_eq!(text.len(), 94);
        assert!(text.contains("W000000BZ"), "{text}");
    }

    #[test]
    fn gamereq_from_pydraughts() {
        // Exactly as pydraughts 0.6 builds it: the start position as B, clock 000.
        let board = format!("W{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let text = format!("R01{:<32}W000000B{board}", "DXP Client");
        match text.parse::<Message>().unwrap() {
            Message::GameReq {
                version: 1,
                initiator,
                follower_side: Side::White,
                minutes: Minutes::ZERO,
                moves: 0,
                start: Some(pos),
            } => {
                assert_eq!(initiator, "DXP Client");
                assert_eq!(pos, Position::initial());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn gamereq_fractions_of_a_minute() {
        let fields = [
            (30.0, "0.5"),
            (15.0, ".25"),
            (20.0, ".33"),
            (3.0, ".05"),
            (60.0, "001"),
            (90.0, "1.5"),
            (75.0, "1.2"),
            (150.0, "2.5"),
            (630.0, "010"),
            (1e9, "999"),
            (0.1, "000"),
        ];
        for (seconds, field) in fields {
            let minutes = Minutes::at_most(seconds);
            assert!(minutes.seconds() <= seconds, "{seconds} s");
            assert_eq!(minutes.field(), field, "{seconds} s");
            let text = round_trip(Message::GameReq {
                version: 1,
                initiator: "Kroon".into(),
                follower_side: Side::White,
                minutes,
                moves: 0,
                start: None,
            });
            assert_eq!(&text[36..39], field);
        }
        assert_eq!(Minutes::at_most(15.0).to_string(), "0.25");
        assert_eq!(Minutes::at_most(30.0).to_string(), "0.5");
        assert_eq!(Minutes::whole(5).to_string(), "5");
        assert!(Minutes::whole(1).is_whole() && !Minutes::at_most(30.0).is_whole());
        for bad in ["0-5", "..5", "1e2", " .5", "-.5", "."] {
            let text = format!("R01{:<32}W{bad}000A", "x");
            assert!(text.parse::<Message>().is_err(), "{bad}");
        }
    }

    #[test]
    fn gameacc() {
        for code in [
            AcceptCode::Accepted,
            AcceptCode::BadVersion,
            AcceptCode::NotThisGame,
            AcceptCode::NoGames,
        ] {
            round_trip(Message::GameAcc {
                follower: "Kroon 0.1.0".into(),
                code,
            });
        }
        // An over-long name is cut to the field, not allowed to shift the code.
        let text = Message::GameAcc {
            follower: "x".repeat(40),
            code: AcceptCode::Accepted,
        }
        .to_string();
        assert_eq!(text.len(), 34);
    }

    #[test]
    fn quiet_move() {
        let text = round_trip(Message::Move {
            seconds: 12,
            from: sq(32),
            to: sq(28),
            captured: vec![],
        });
        assert_eq!(text, "M0012322800");
    }

    #[test]
    fn twenty_piece_capture() {
        let captured: Vec<Square> = (1..=20).map(sq).collect();
        let text = round_trip(Message::Move {
            seconds: 9999,
            from: sq(46),
            to: sq(50),
            captured,
        });
        assert_eq!(text.len(), 11 + 40);
        assert!(text.starts_with("M9999465020010203"), "{text}");
    }

    #[test]
    fn gameend_chat_back() {
        for reason in [
            EndReason::Unknown,
            EndReason::ILose,
            EndReason::Draw,
            EndReason::IWin,
        ] {
            for stop in [false, true] {
                round_trip(Message::GameEnd { reason, stop });
            }
        }
        assert_eq!(
            round_trip(Message::Chat("hello, 32-28?".into())),
            "Chello, 32-28?"
        );
        round_trip(Message::Chat(String::new()));
        assert_eq!(
            round_trip(Message::BackReq {
                move_number: 5,
                side: Side::Black
            }),
            "B005Z"
        );
        for code in [BackCode::Accepted, BackCode::NotSupported, BackCode::PlayOn] {
            round_trip(Message::BackAcc { code });
        }
    }

    #[test]
    fn chat_never_holds_a_nul() {
        assert_eq!(Message::Chat("a\0b".into()).to_string(), "Ca b");
    }

    #[test]
    fn malformed_messages_are_errors() {
        let cases = [
            ("", None),
            ("X123", Some('X')),
            ("M00123228", Some('M')),
            ("M0012322801", Some('M')),
            ("M00123228011900", Some('M')),
            ("M0012328000", Some('M')),
            ("M00125128000", Some('M')),
            ("M0012002800", Some('M')),
            ("M00a2322800", Some('M')),
            (
                "M00123228210102030405060708091011121314151617181920212223",
                Some('M'),
            ),
            ("E4", Some('E')),
            ("E2", Some('E')),
            ("E25", Some('E')),
            ("B05Z", Some('B')),
            ("B005X", Some('B')),
            ("K3", Some('K')),
            ("A short", Some('A')),
            ("R01short", Some('R')),
            ("R01Kroon                           Q005000A", Some('R')),
            ("R01Kroon                           Z005000C", Some('R')),
            ("R01Kroon                           Z005000Bxyz", Some('R')),
            ("M0012é322800", Some('M')),
        ];
        for (text, kind) in cases {
            let err = text
                .parse::<Message>()
                .expect_err(&format!("{text:?} parsed"));
            assert_eq!(err.kind, kind, "{text:?}: {err}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn illegal_start_position_is_an_error() {
        // A white man on White's promotion row cannot exist.
        let board = format!("W{}{}", "w", "e".repeat(49));
        let text = format!("R01{:<32}W005000B{board}", "x");
        let err = text.parse::<Message>().unwrap_err();
        assert_eq!(err.kind, Some('R'));
        assert!(err.detail.contains("start position"), "{err}");
    }

    #[test]
    fn trailing_newline_is_tolerated() {
        assert_eq!(
            "E30\r\n".parse::<Message>().unwrap(),
            Message::GameEnd {
                reason: EndReason::IWin,
                stop: false
            }
        );
    }
}
