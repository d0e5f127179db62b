//! The network evaluation's file.
//!
//! File (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | magic `KROONNET` |
//! | 8-11 | format version: 1 for a network of one view, 2 for two (so that a Kroon from before views reads every one-view file), 3 for a bucketed network, 4 for one of squared activations, 5 for one with pair inputs |
//! | 12-15, 16-19, 20-23 | inputs (200), first layer's width, second layer's width (16; 32 before 29 November 2026, refused since) |
//! | 24-27, 28-31, 32-35 | the scales: activation (127), second layer (512), output (512) |
//! | 36-39 | version 2: views (2); version 1: 0 (one view); versions 3 to 5: views (1 or 2) |
//! | 40-43 | versions 3 to 5: input weight sets (version 3: 8, the buckets; versions 4 and 5: 1 or 8) |
//! | 44-47 | versions 4 and 5: the activation (version 4: 1, squared; version 5: 0 clipped, 1 squared) |
//! | 48-51 | version 5 only: the inputs beyond the pieces (1: pairs, [`super::pairs`]) |
//! | then | the input weights, `i16`, feature by feature (inputs x width; bucket by bucket from version 3; then, in version 5, the pair inputs') |
//! | then | the first layer's biases, `i16` |
//! | then | the second layer's weights, `i16`, unit by unit (16 x views x width) |
//! | then | the second layer's biases, `i32` |
//! | then | the output weights, `i16` (16), and the output bias, `i32` |
//! | last 8 | FNV-1a 64 checksum of everything before it |
//!
//! What the numbers mean is in [`super`].

use super::pairs::PAIR_FEATURES;
use super::{Network, ACTIVATION, BUCKETS, DENSE_SCALE, FEATURES, MAX_VIEWS, OUTPUT_SCALE, SECOND};
use crate::knowledge_file::{self, u32_at, Frame};
use std::path::Path;

/// The network file's tag, version and name.
pub const FRAME: Frame = Frame {
    tag: b"KROONNET",
    version: 5,
    oldest: 1,
    what: "network",
};
/// The header of versions 1 and 2; version 3 adds the buckets' word, version 4
/// the activation's.
const HEADER: usize = 40;

/// The oldest version that can hold a network of `buckets` input weight sets,
/// `views` views, `squared` activations and `pairs` inputs: networks keep the
/// versions older Kroons read.
const fn version_of(views: usize, buckets: usize, squared: bool, pairs: bool) -> u32 {
    match (pairs, squared, buckets, views) {
        (true, ..) => 5,
        (false, true, ..) => 4,
        (false, false, 1, 1) => 1,
        (false, false, 1, _) => 2,
        _ => 3,
    }
}

/// The header of a file of `version`.
const fn header(version: u32) -> usize {
    match version {
        1 | 2 => HEADER,
        3 => HEADER + 4,
        4 => HEADER + 8,
        _ => HEADER + 12,
    }
}

/// The size of the file of a network with a first layer of `hidden`, `views`
/// views, `buckets` input weight sets, `squared` activations or not and `pairs`
/// inputs or not.
#[must_use]
pub const fn file_size(
    hidden: usize,
    views: usize,
    buckets: usize,
    squared: bool,
    pairs: bool,
) -> usize {
    header(version_of(views, buckets, squared, pairs))
        + 2 * (input_weights(buckets, pairs) * hidden + hidden + SECOND * views * hidden + SECOND)
        + 4 * SECOND
        + 4
        + 8
}

/// The inputs whose weights the file holds (as [`Network::inputs`]).
const fn input_weights(buckets: usize, pairs: bool) -> usize {
    FEATURES * buckets + if pairs { PAIR_FEATURES } else { 0 }
}

impl Network {
    /// The file's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let version = version_of(self.views, self.buckets, self.squared, self.pairs);
        let size = file_size(
            self.hidden,
            self.views,
            self.buckets,
            self.squared,
            self.pairs,
        );
        let mut out = FRAME.start_version(version, size);
        let mut header = vec![
            FEATURES as u32,
            self.hidden as u32,
            SECOND as u32,
            ACTIVATION as u32,
            DENSE_SCALE as u32,
            OUTPUT_SCALE as u32,
            if version == 1 { 0 } else { self.views as u32 },
        ];
        if version >= 3 {
            header.push(self.buckets as u32);
        }
        if version >= 4 {
            header.push(u32::from(self.squared));
        }
        if version >= 5 {
            header.push(u32::from(self.pairs));
        }
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let shorts = self.input.iter().chain(&self.input_bias).chain(&self.dense);
        for w in shorts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.dense_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &self.output {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        Frame::seal(&mut out);
        out
    }

    /// Reads a file's bytes; the error says what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Network, String> {
        let version = FRAME.open(bytes, HEADER)?;
        let shape = [12, 20, 24, 28, 32].map(|at| u32_at(bytes, at));
        let expected = [FEATURES, SECOND].map(|n| n as u32);
        let scales = [ACTIVATION, DENSE_SCALE, OUTPUT_SCALE].map(|n| n as u32);
        if [shape[0], shape[1]] != expected || shape[2..] != scales {
            return Err(format!(
                "a network of {} inputs, a second layer of {}, scales {:?}; this Kroon has {FEATURES}, {SECOND}, {scales:?}",
                shape[0], shape[1], &shape[2..]
            ));
        }
        let hidden = u32_at(bytes, 16) as usize;
        let views = match (version, u32_at(bytes, 36)) {
            (1, 0) => 1,
            (2, 2) => 2,
            (3..=5, v @ 1..=2) => v as usize,
            (_, v) => {
                return Err(format!(
                    "views' word {v} in a version {version} network (version 1: 0, one view; version 2: {MAX_VIEWS} views; versions 3 to 5: 1 or {MAX_VIEWS})"
                ))
            }
        };
        if bytes.len() < header(version) {
            return Err(format!(
                "a version {version} network cut off in its header (truncated)"
            ));
        }
        // The buckets' word is read only where the version has one: a short
        // version 1 or 2 file ends before it.
        let buckets = match version {
            1 | 2 => 1,
            _ => match (version, u32_at(bytes, HEADER) as usize) {
                (_, BUCKETS) => BUCKETS,
                (4 | 5, 1) => 1,
                (_, b) => {
                    let takes = if version == 3 { "" } else { "1 or " };
                    return Err(format!(
                        "{b} buckets in a version {version} network; this Kroon takes {takes}{BUCKETS}"
                    ));
                }
            },
        };
        let (squared, pairs) = activation_and_inputs(bytes, version)?;
        let size = file_size(hidden.min(1 << 20), views, buckets, squared, pairs);
        if bytes.len() != size {
            return Err(format!(
                "{} bytes where a network with a first layer of {hidden}, {views} view(s), {buckets} bucket(s){}{} has {size} (truncated or padded)",
                bytes.len(),
                if squared { ", squared activations" } else { "" },
                if pairs { ", pair inputs" } else { "" }
            ));
        }
        let body = FRAME.unseal(bytes)?;
        let mut network = read_body(&body[header(version)..], hidden, views, buckets, pairs);
        network.squared = squared;
        network.check()?;
        Ok(network)
    }

    /// Reads a network file; the error names it.
    pub fn load(path: &Path) -> Result<Network, String> {
        knowledge_file::read(path, Network::decode)
    }

    /// Writes a network file (through a temporary file, so a reader never sees half
    /// of one).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        knowledge_file::write(path, &self.encode())
    }
}

/// The activation's and the inputs' words of a version 4 or 5 file (squared
/// activations, pair inputs); an older file has neither. Each word is read only
/// where the version has it: a short older file ends before it.
fn activation_and_inputs(bytes: &[u8], version: u32) -> Result<(bool, bool), String> {
    let word = |at: usize, from: u32| (version >= from).then(|| u32_at(bytes, at));
    let squared = match (version, word(HEADER + 4, 4)) {
        (1..=3, _) => false,
        (4, Some(1)) => true,
        (5, Some(a @ 0..=1)) => a == 1,
        (_, a) => {
            let a = a.unwrap_or_default();
            let takes = if version == 4 {
                "1 (squared)"
            } else {
                "0 or 1"
            };
            return Err(format!(
                "activation {a} in a version {version} network; this Kroon takes {takes}"
            ));
        }
    };
    let pairs = match word(HEADER + 8, 5) {
        None => false,
        Some(1) => true,
        Some(i) => {
            return Err(format!(
                "inputs' word {i} in a version {version} network; this Kroon takes 1 (pairs)"
            ))
        }
    };
    Ok((squared, pairs))
}

/// The layers from the bytes after the header (their size already checked).
fn read_body(body: &[u8], hidden: usize, views: usize, buckets: usize, pairs: bool) -> Network {
    let mut at = 0;
    let mut shorts = |n: usize| -> Vec<i16> {
        let out = body[at..at + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        at += 2 * n;
        out
    };
    let inputs = input_weights(buckets, pairs);
    let input = shorts(inputs * hidden);
    let input_bias = shorts(hidden);
    let dense = shorts(SECOND * views * hidden);
    let rest = &body[2 * (inputs * hidden + hidden + SECOND * views * hidden)..];
    let int = |i: usize| i32::from_le_bytes(rest[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    let dense_bias = std::array::from_fn(int);
    let outputs = &rest[4 * SECOND..];
    let output = std::array::from_fn(|i| i16::from_le_bytes([outputs[2 * i], outputs[2 * i + 1]]));
    let last = &outputs[2 * SECOND..];
    Network {
        hidden,
        views,
        buckets,
        squared: false,
        pairs,
        input,
        input_bias,
        dense,
        dense_bias,
        output,
        output_bias: i32::from_le_bytes(last[..4].try_into().expect("4 bytes")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        busy_bucketed_network, busy_network, busy_network_of_views, busy_paired_network,
        busy_squared_network,
    };
    use super::*;

    #[test]
    fn networks_round_trip() {
        for views in 1..=MAX_VIEWS {
            for buckets in [1, BUCKETS] {
                let mut paired_squared = busy_paired_network(1, 48, views, buckets);
                paired_squared.squared = true;
                for net in [
                    busy_bucketed_network(1, 48, views, buckets),
                    busy_squared_network(1, 48, views, buckets),
                    busy_paired_network(1, 48, views, buckets),
                    paired_squared,
                ] {
                    let bytes = net.encode();
                    let size = file_size(48, views, buckets, net.squared, net.pairs);
                    assert_eq!(bytes.len(), size);
                    assert_eq!(Network::decode(&bytes), Ok(net));
                }
            }
        }
    }

    #[test]
    fn one_view_is_version_1_two_views_version_2() {
        // A one-view network is written as before views were counted, so
        // older Kroons read it.
        for (views, version, word) in [(1, 1, 0), (2, 2, 2)] {
            let bytes = busy_network_of_views(6, 32, views).encode();
            assert_eq!(u32_at(&bytes, 8), version);
            assert_eq!(u32_at(&bytes, 36), word);
        }
        // A bucketed network is version 3, its views counted as they are.
        for views in 1..=MAX_VIEWS {
            let bytes = busy_bucketed_network(6, 32, views, BUCKETS).encode();
            assert_eq!(u32_at(&bytes, 8), 3);
            assert_eq!(u32_at(&bytes, 36), views as u32);
            assert_eq!(u32_at(&bytes, 40), BUCKETS as u32);
        }
        // Squared activations are version 4, whatever the buckets.
        for buckets in [1, BUCKETS] {
            let bytes = busy_squared_network(6, 32, 2, buckets).encode();
            assert_eq!(u32_at(&bytes, 8), 4);
            assert_eq!(
                [u32_at(&bytes, 40), u32_at(&bytes, 44)],
                [buckets as u32, 1]
            );
        }
        // Pair inputs are version 5, with the activation's word and the inputs'.
        for squared in [false, true] {
            let mut net = busy_paired_network(6, 32, 2, BUCKETS);
            net.squared = squared;
            let bytes = net.encode();
            assert_eq!(u32_at(&bytes, 8), 5);
            assert_eq!(
                [u32_at(&bytes, 40), u32_at(&bytes, 44), u32_at(&bytes, 48)],
                [BUCKETS as u32, u32::from(squared), 1]
            );
        }
        // The built-in network reads the board from both sides, with input
        // weights by bucket (b8a, 2 December).
        let built_in = Network::decode(include_bytes!("../kroon.net")).unwrap();
        assert_eq!((built_in.views, built_in.buckets), (2, BUCKETS));
        // The views' word must agree with the version.
        let mut bytes = busy_network_of_views(6, 32, 2).encode();
        bytes.truncate(bytes.len() - 8);
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        Frame::seal(&mut bytes);
        let err = Network::decode(&bytes).unwrap_err();
        assert!(err.contains("views' word 2 in a version 1"), "{err}");
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = busy_network(2, 32).encode();
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(Network::decode(&flipped).unwrap_err().contains("checksum"));
        assert!(Network::decode(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        let mut version = bytes.clone();
        version[8] = 6;
        assert!(Network::decode(&version).unwrap_err().contains("version 6"));
        let mut inputs = busy_paired_network(2, 32, 2, 1).encode();
        inputs[48] = 2;
        assert!(Network::decode(&inputs)
            .unwrap_err()
            .contains("inputs' word 2"));
        inputs[48] = 1;
        inputs[44] = 2;
        assert!(Network::decode(&inputs)
            .unwrap_err()
            .contains("activation 2"));
        assert!(Network::decode(&inputs[..50])
            .unwrap_err()
            .contains("truncated"));
        let mut activation = busy_squared_network(2, 32, 2, 1).encode();
        activation[44] = 2;
        assert!(Network::decode(&activation)
            .unwrap_err()
            .contains("activation 2"));
        assert!(Network::decode(&activation[..46])
            .unwrap_err()
            .contains("truncated"));
        let mut buckets = busy_bucketed_network(2, 32, 2, BUCKETS).encode();
        buckets[40] = 5;
        assert!(Network::decode(&buckets).unwrap_err().contains("5 buckets"));
        assert!(Network::decode(&buckets[..42])
            .unwrap_err()
            .contains("truncated"));
        // A version 2 file cut off just after its header is refused, not read past.
        let short = &busy_network_of_views(2, 32, 2).encode()[..42];
        assert!(Network::decode(short).unwrap_err().contains("truncated"));
        let mut views = busy_network_of_views(2, 32, 2).encode();
        views[36] = 3;
        assert!(Network::decode(&views)
            .unwrap_err()
            .contains("views' word 3"));
        let mut wide = bytes.clone();
        wide[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Network::decode(&wide).unwrap_err().contains("truncated"));
        assert!(Network::decode(b"KROONEVL").unwrap_err().contains("not a"));
        assert!(Network::decode(&[]).is_err());
    }

    #[test]
    fn a_network_past_the_bounds_is_refused_even_with_a_good_checksum() {
        let mut net = busy_network(3, 16);
        net.input_bias[0] = i16::MAX;
        let err = Network::decode(&net.encode()).unwrap_err();
        assert!(err.contains("overflow"), "{err}");
    }
}
